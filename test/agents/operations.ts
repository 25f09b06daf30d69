/**
 * The agents area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The agents area's operations, by operationId. */
export const operations = {
  Agents_ListAgents: { method: "get", path: "/api/v1/agents", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  // ours: facet counts of the list's filters (public read, as the list)
  Agents_ListAgentFacets: { method: "get", path: "/api/v1/agents/facets", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Agents_GetAgent: { method: "get", path: "/api/v1/agents/{entityPublicId}", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Agents_GetErc8004Registration: { method: "get", path: "/api/v1/agents/{entityPublicId}/erc8004-registration.json", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Agents_GetAgentCard: { method: "get", path: "/api/v1/agents/{entityPublicId}/agent-card", tag: "Agents", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Agents_CreateAgent: { method: "post", path: "/api/v1/agents", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Agents_UpdateAgent: { method: "patch", path: "/api/v1/agents/{entityPublicId}", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Agents_RetireAgent: { method: "post", path: "/api/v1/agents/{entityPublicId}/retire", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Agents_ListFavoriteAgents: { method: "get", path: "/api/v1/agents/favorites", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  // named in spec §9, shape ours: public read, no Idempotency-Key (read-only)
  Agents_ResolveAgentIdentities: { method: "post", path: "/api/v1/resolve/agent-identities", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 429, 500, 503] },
  // spec §4.3: analytics (tag Social; reading and downloading an export are ours) and public activity
  Agents_GetPublicAgentActivity: { method: "get", path: "/api/v1/agents/{entityPublicId}/activity", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, cost: 2, statuses: [200, 400, 401, 403, 404, 500, 503] },
  // ours: proof of control of an agent identity
  Agents_CreateIdentityChallenge: { method: "post", path: "/api/v1/agents/{entityPublicId}/identity-challenges", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500, 503] },
  Agents_ProveIdentity: { method: "post", path: "/api/v1/agents/{entityPublicId}/identities", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 410, 422, 500, 503] },
  Agents_FavoriteAgent: { method: "put", path: "/api/v1/agents/{entityPublicId}/favorite", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 201, 400, 401, 403, 404, 409, 500, 503] },
  Agents_UnfavoriteAgent: { method: "delete", path: "/api/v1/agents/{entityPublicId}/favorite", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [204, 400, 401, 403, 404, 500, 503] },
  // agent imports (ours, under the Agents tag)
  Agents_ImportAgentSource: { method: "post", path: "/api/v1/agents/{entityPublicId}/imports", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 429, 500, 503] },
  Agents_GetAgentImport: { method: "get", path: "/api/v1/agents/{entityPublicId}/imports/{importId}", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] }
} as const satisfies OperationExpectations
