/**
 * The workspaces area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The workspaces area's operations, by operationId. */
export const operations = {
  Workspaces_GetWorkspace: { method: "get", path: "/api/v1/workspaces/{workspacePublicId}", tag: "Workspaces", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 423, 500] },
  // ours: the workspace lifecycle
  Workspaces_CreateWorkspace: { method: "post", path: "/api/v1/workspaces", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 409, 500] },
  Workspaces_ListWorkspaces: { method: "get", path: "/api/v1/workspaces", tag: "Workspaces", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500] },
  Workspaces_UpdateWorkspace: { method: "patch", path: "/api/v1/workspaces/{workspacePublicId}", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Workspaces_CloseWorkspace: { method: "post", path: "/api/v1/workspaces/{workspacePublicId}/close", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Workspaces_SuspendWorkspace: { method: "post", path: "/api/v1/admin/workspaces/{workspacePublicId}/suspend", tag: "Workspaces", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Workspaces_ResumeWorkspace: { method: "post", path: "/api/v1/admin/workspaces/{workspacePublicId}/resume", tag: "Workspaces", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Workspaces_ListAuditEvents: { method: "get", path: "/api/v1/workspaces/{workspacePublicId}/audit-events", tag: "Workspaces", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Workspaces_CreateWebhookSubscription: { method: "post", path: "/api/v1/workspaces/{workspacePublicId}/webhooks", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 423, 500, 503] },
  Workspaces_ListWebhookSubscriptions: { method: "get", path: "/api/v1/workspaces/{workspacePublicId}/webhooks", tag: "Workspaces", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 423, 500, 503] },
  Workspaces_DeleteWebhookSubscription: { method: "delete", path: "/api/v1/workspaces/{workspacePublicId}/webhooks/{subscriptionId}", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 500, 503] },
  Workspaces_RotateWebhookSecret: { method: "post", path: "/api/v1/workspaces/{workspacePublicId}/webhooks/{subscriptionId}/rotate-secret", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 500, 503] },
  Workspaces_ListWebhookDeliveries: { method: "get", path: "/api/v1/workspaces/{workspacePublicId}/webhooks/{subscriptionId}/deliveries", tag: "Workspaces", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 423, 500, 503] },
  Workspaces_CreateInvitation: { method: "post", path: "/api/v1/workspaces/{workspacePublicId}/invitations", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 423, 429, 500, 503] },
  Workspaces_RevokeInvitation: { method: "delete", path: "/api/v1/workspaces/{workspacePublicId}/invitations/{invitationPublicId}", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 500] },
  Workspaces_AcceptInvitation: { method: "post", path: "/api/v1/invitations/accept", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 410, 423, 500] },
  Workspaces_UpdateMember: { method: "patch", path: "/api/v1/workspaces/{workspacePublicId}/members/{accountPublicId}", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 500] },
  Workspaces_RemoveMember: { method: "delete", path: "/api/v1/workspaces/{workspacePublicId}/members/{accountPublicId}", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 500] },
  Workspaces_LeaveWorkspace: { method: "post", path: "/api/v1/workspaces/{workspacePublicId}/leave", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 500] },
  Workspaces_TransferOwnership: { method: "post", path: "/api/v1/workspaces/{workspacePublicId}/ownership", tag: "Workspaces", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 500] }
} as const satisfies OperationExpectations
