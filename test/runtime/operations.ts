/**
 * The runtime area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The runtime area's operations, by operationId. */
export const operations = {
  // spec §4.4: Runtime and MCP
  Runtime_ListRuntimeTools: { method: "get", path: "/api/v1/agents/{entityPublicId}/tools", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  Runtime_PreviewAgentSchedule: { method: "post", path: "/api/v1/agents/{entityPublicId}/schedules/preview", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  Runtime_SendMessage: { method: "post", path: "/api/v1/conversations/{conversationId}/messages", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 402, 403, 404, 409, 422, 500] },
  Runtime_ClearPlaygroundRunData: { method: "delete", path: "/api/v1/runs/{runId}/playground-data", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  // ours: conversation and run reads
  Runtime_CreateConversation: { method: "post", path: "/api/v1/agents/{entityPublicId}/conversations", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500] },
  Runtime_ListConversations: { method: "get", path: "/api/v1/agents/{entityPublicId}/conversations", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Runtime_ListMessages: { method: "get", path: "/api/v1/conversations/{conversationId}/messages", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Runtime_GetRun: { method: "get", path: "/api/v1/runs/{runId}", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Runtime_StreamRunEvents: { method: "get", path: "/api/v1/runs/{runId}/events", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 204, 400, 401, 403, 404, 500, 503] },
  // ours: schedules that fire
  Runtime_CreateAgentSchedule: { method: "post", path: "/api/v1/agents/{entityPublicId}/schedules", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500] },
  Runtime_ListAgentSchedules: { method: "get", path: "/api/v1/agents/{entityPublicId}/schedules", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Runtime_DeleteAgentSchedule: { method: "delete", path: "/api/v1/agents/{entityPublicId}/schedules/{scheduleId}", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Runtime_DecideToolApproval: { method: "post", path: "/api/v1/runs/{runId}/approvals", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Runtime_CancelRun: { method: "post", path: "/api/v1/runs/{runId}/cancel", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  // ours: an agent's runtime configuration
  Runtime_ConfigureAgentRuntime: { method: "put", path: "/api/v1/agents/{entityPublicId}/runtime", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 201, 400, 401, 403, 404, 409, 422, 500] },
  Runtime_GetAgentRuntime: { method: "get", path: "/api/v1/agents/{entityPublicId}/runtime", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 422, 500] }
} as const satisfies OperationExpectations
