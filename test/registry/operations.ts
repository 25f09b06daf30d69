/**
 * The registry area's operations (the MCP subregistry, MCP Registry read API v0.1, and its upstream
 * sources, `Partners_*`), as the service declares them: what test/openapi/OpenApi.test.ts checks
 * `/openapi.json` against. The v0.1 paths are the registry's, outside `/api/v1`.
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The registry area's operations, by operationId. */
export const operations = {
  Registry_ListServers: { method: "get", path: "/v0.1/servers", tag: "Registry", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Registry_ListServerVersions: { method: "get", path: "/v0.1/servers/{serverName}/versions", tag: "Registry", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Registry_GetServerVersion: { method: "get", path: "/v0.1/servers/{serverName}/versions/{version}", tag: "Registry", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Partners_CreateUpstreamSource: { method: "post", path: "/api/v1/admin/upstream-sources", tag: "Partners", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 409, 500, 503] },
  Partners_ListUpstreamSources: { method: "get", path: "/api/v1/admin/upstream-sources", tag: "Partners", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 401, 403, 500, 503] },
  Partners_SyncUpstreamSource: { method: "post", path: "/api/v1/admin/upstream-sources/{sourceId}/sync", tag: "Partners", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] }
} as const satisfies OperationExpectations
