/**
 * The trust area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The trust area's operations, by operationId. */
export const operations = {
  // ours: the evidence writes
  Trust_CreateFeedback: { method: "post", path: "/api/v1/agents/{entityPublicId}/feedback", tag: "Trust", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 201, 400, 401, 403, 404, 409, 500, 503] },
  Trust_VoteFeedback: { method: "post", path: "/api/v1/feedback/{feedbackId}/votes", tag: "Trust", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Trust_WithdrawFeedback: { method: "post", path: "/api/v1/feedback/{feedbackId}/withdraw", tag: "Trust", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 410, 422, 500, 503] },
  // ours: tool-safety findings (docs/findings.md)
  Trust_ListAgentFindings: { method: "get", path: "/api/v1/agents/{entityPublicId}/findings", tag: "Trust", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  // trust, rank and performance projections (Trust tag, group Reputation)
  Trust_GetAgentTrust: { method: "get", path: "/api/v1/agents/{entityPublicId}/trust", tag: "Trust", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Trust_GetAgentRank: { method: "get", path: "/api/v1/agents/{entityPublicId}/rank", tag: "Trust", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Trust_GetAgentPerformance: { method: "get", path: "/api/v1/agents/{entityPublicId}/performance", tag: "Trust", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] }
} as const satisfies OperationExpectations
