/**
 * The services area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

const command = { tag: "Services", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] } as const

/** The services area's operations, by operationId. */
export const operations = {
  Services_PublishServiceOffer: { method: "post", path: "/api/v1/offers/{offerId}/publish", ...command },
  Services_CreateServiceOffer: { method: "post", path: "/api/v1/offers", ...command, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Services_UpdateServiceOffer: { method: "patch", path: "/api/v1/offers/{offerId}", ...command },
  Services_SetOfferPrices: { method: "put", path: "/api/v1/offers/{offerId}/prices", ...command },
  Services_CreateTermsRevision: { method: "post", path: "/api/v1/offers/{offerId}/terms", ...command, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Services_PauseServiceOffer: { method: "post", path: "/api/v1/offers/{offerId}/pause", ...command },
  Services_RetireServiceOffer: { method: "post", path: "/api/v1/offers/{offerId}/retire", ...command },
  Services_GetServiceOffer: { method: "get", path: "/api/v1/offers/{offerId}", tag: "Services", auth: "optional-user", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Services_ListAgentOffers: { method: "get", path: "/api/v1/agents/{agentId}/offers", tag: "Services", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] }
} as const satisfies OperationExpectations
