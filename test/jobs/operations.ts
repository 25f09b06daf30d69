/**
 * The jobs area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The jobs area's operations, by operationId. */
export const operations = {
  Jobs_ResolveBountyDispute: { method: "post", path: "/api/v1/admin/bounties/{bountyId}/disputes/{disputeId}/resolution", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  Jobs_CreateBounty: { method: "post", path: "/api/v1/bounties", tag: "Jobs", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 422, 500] },
  Jobs_GetBounty: { method: "get", path: "/api/v1/bounties/{bountyId}", tag: "Jobs", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Jobs_ListBounties: { method: "get", path: "/api/v1/workspaces/{workspaceId}/bounties", tag: "Jobs", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Jobs_FundBounty: { method: "post", path: "/api/v1/bounties/{bountyId}/fund", tag: "Jobs", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 422, 500, 503] },
  Jobs_ClaimBounty: { method: "post", path: "/api/v1/bounties/{bountyId}/claim", tag: "Jobs", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  Jobs_SubmitBountyDelivery: { method: "post", path: "/api/v1/bounties/{bountyId}/delivery", tag: "Jobs", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Jobs_AcceptBountyDelivery: { method: "post", path: "/api/v1/bounties/{bountyId}/accept", tag: "Jobs", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  Jobs_RejectBountyDelivery: { method: "post", path: "/api/v1/bounties/{bountyId}/reject", tag: "Jobs", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Jobs_OpenBountyDispute: { method: "post", path: "/api/v1/bounties/{bountyId}/disputes", tag: "Jobs", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500] },
  Jobs_CancelBounty: { method: "post", path: "/api/v1/bounties/{bountyId}/cancel", tag: "Jobs", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Jobs_CreatePartnerJobSource: { method: "post", path: "/api/v1/admin/jobs/sources", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 409, 500, 503] },
  Jobs_ListPartnerJobSources: { method: "get", path: "/api/v1/admin/jobs/sources", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 401, 403, 500, 503] },
  Jobs_UpdatePartnerJobSource: { method: "patch", path: "/api/v1/admin/jobs/sources/{sourceId}", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Jobs_ListJobs: { method: "get", path: "/api/v1/jobs", tag: "Jobs", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Jobs_GetJob: { method: "get", path: "/api/v1/jobs/{jobId}", tag: "Jobs", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Jobs_SyncPartnerJobSource: { method: "post", path: "/api/v1/admin/jobs/sources/{sourceId}/sync", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] }
} as const satisfies OperationExpectations
