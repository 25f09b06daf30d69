/**
 * The networks area's operations as the service declares them: what
 * test/openapi/OpenApi.test.ts checks `/openapi.json` against (path, method, tag,
 * `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the Idempotency-Key
 * header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The networks area's operations, by operationId. */
export const operations = {
  // as the public catalogs (Protocols_GetProtocolCatalog): a presented API key that is not valid is 401, 403 without the scope
  Networks_ListNetworks: { method: "get", path: "/api/v1/networks", tag: "Networks", auth: "public", cache: "public-catalog", scopes: ["public:read"], idempotency: false, statuses: [200, 401, 403, 500, 503] }
} as const satisfies OperationExpectations
