/**
 * The launch area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The launch area's operations, by operationId. */
export const operations = {
  // spec §4.3: launch, procurement, mesh
  Launch_CreateLaunchDraft: { method: "post", path: "/api/v1/launch-drafts", tag: "Launch", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Launch_StartLaunchRun: { method: "post", path: "/api/v1/launch-drafts/{launchDraftId}/runs", tag: "Launch", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 422, 500, 503] },
  Launch_GetLaunchRun: { method: "get", path: "/api/v1/launch-runs/{runId}", tag: "Launch", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Launch_ListLaunchRuns: { method: "get", path: "/api/v1/launch-runs", tag: "Launch", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Launch_MaterializeLaunchTransaction: { method: "post", path: "/api/v1/launch-runs/{runId}/transaction-intent", tag: "Launch", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] }
} as const satisfies OperationExpectations
