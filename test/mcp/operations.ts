/**
 * The mcp area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The mcp area's operations, by operationId. */
export const operations = {
  MCP_GetMcpCatalog: { method: "get", path: "/api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}/catalog", tag: "MCP", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  MCP_BeginMcpOAuth: { method: "post", path: "/api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}/oauth", tag: "MCP", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  // ours: the OAuth redirect endpoint of MCP connections
  MCP_CompleteMcpOAuth: { method: "get", path: "/api/v1/mcp/oauth/callback", tag: "MCP", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 409, 410, 422, 500, 503] },
  // MCP connections (ours, in the spec's conventions)
  MCP_CreateMcpConnection: { method: "post", path: "/api/v1/agents/{entityPublicId}/mcp/connections", tag: "MCP", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500] },
  MCP_ListMcpConnections: { method: "get", path: "/api/v1/agents/{entityPublicId}/mcp/connections", tag: "MCP", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  MCP_GetMcpConnection: { method: "get", path: "/api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}", tag: "MCP", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  MCP_RefreshMcpCatalog: { method: "post", path: "/api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}/catalog/refresh", tag: "MCP", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 422, 500] }
} as const satisfies OperationExpectations
