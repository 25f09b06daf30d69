/**
 * The admin area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The admin area's operations, by operationId. */
export const operations = {
  // ours, not in the spec: the admin's view of background job runs
  Admin_ListJobRuns: { method: "get", path: "/api/v1/admin/jobs", tag: "Admin", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Admin_RetryJobRun: { method: "post", path: "/api/v1/admin/jobs/{executionId}/retry", tag: "Admin", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] }
} as const satisfies OperationExpectations
