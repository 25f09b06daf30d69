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
  Jobs_SyncPartnerJobSource: { method: "post", path: "/api/v1/admin/jobs/sources/{sourceId}/sync", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] }
} as const satisfies OperationExpectations
