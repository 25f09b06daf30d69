/**
 * The protocols area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The protocols area's operations, by operationId. */
export const operations = {
  // spec §4.3 lists 200, 500, 503; a presented API key that is not valid is refused
  // with the one 401 of spec §5.3 (403 without the scope), so those are declared too
  Protocols_GetProtocolCatalog: { method: "get", path: "/api/v1/protocols", tag: "Protocols", auth: "public", cache: "public-catalog", scopes: ["public:read"], idempotency: false, statuses: [200, 401, 403, 500, 503] }
} as const satisfies OperationExpectations
