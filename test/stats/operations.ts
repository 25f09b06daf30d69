/**
 * The stats area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The stats area's operations, by operationId. */
export const operations = {
  // daily statistics as immutable projections (spec §9 /api/v1/stats/*)
  Stats_GetDirectoryDailyStats: { method: "get", path: "/api/v1/stats/directory/daily/{date}", tag: "Stats", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Stats_ListDirectoryDailyStats: { method: "get", path: "/api/v1/stats/directory/daily", tag: "Stats", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Stats_GetAgentDailyStats: { method: "get", path: "/api/v1/stats/agents/{entityPublicId}/daily/{date}", tag: "Stats", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Stats_ListAgentDailyStats: { method: "get", path: "/api/v1/stats/agents/{entityPublicId}/daily", tag: "Stats", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] }
} as const satisfies OperationExpectations
