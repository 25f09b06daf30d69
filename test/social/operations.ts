/**
 * The social area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The social area's operations, by operationId. */
export const operations = {
  Social_IngestProductEvent: { method: "post", path: "/api/v1/analytics/events", tag: "Social", auth: "optional-user", cache: "none", scopes: ["public:read"], idempotency: "optional", cost: 10, statuses: [202, 400, 401, 403, 404, 409, 429, 500, 503] },
  // ours: the context token ingestion needs
  Social_IssueAnalyticsContextToken: { method: "post", path: "/api/v1/analytics/context-tokens", tag: "Social", auth: "public", cache: "none", scopes: ["public:read"], idempotency: true, cost: 1, statuses: [201, 400, 401, 403, 404, 429, 500, 503] },
  Social_CreateAnalyticsExport: { method: "post", path: "/api/v1/agents/{entityPublicId}/analytics/exports", tag: "Social", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 429, 500, 503] },
  Social_GetAnalyticsExport: { method: "get", path: "/api/v1/agents/{entityPublicId}/analytics/exports/{exportId}", tag: "Social", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Social_DownloadAnalyticsExport: { method: "get", path: "/api/v1/analytics/exports/download", tag: "Social", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 410, 500, 503] },
  Social_CreateMeshPublisher: { method: "post", path: "/api/v1/mesh/publishers", tag: "Social", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 429, 500, 503] }
} as const satisfies OperationExpectations
