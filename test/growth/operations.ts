/**
 * The growth area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The growth area's operations, by operationId. */
export const operations = {
  // admin operations (spec §4.2); several groups share the Growth and Jobs tags
  Growth_ListAdminTokenOperations: { method: "get", path: "/api/v1/admin/token-operations", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  // token operations: ours (the spec lists only the admin read)
  Growth_CreateTokenOperation: { method: "post", path: "/api/v1/admin/token-operations", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500, 503] },
  Growth_ApproveTokenOperation: { method: "post", path: "/api/v1/admin/token-operations/{operationId}/approve", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 422, 500, 503] },
  Growth_CancelTokenOperation: { method: "post", path: "/api/v1/admin/token-operations/{operationId}/cancel", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  // ad campaigns (spec §4.2)
  Growth_ListAdminAdCampaigns: { method: "get", path: "/api/v1/admin/ads/campaigns", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Growth_ReviewAdCampaign: { method: "post", path: "/api/v1/admin/ads/campaigns/{campaignId}/review", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  Growth_ListAdCampaigns: { method: "get", path: "/api/v1/ads/campaigns", tag: "Growth", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Growth_CreateAdCampaign: { method: "post", path: "/api/v1/ads/campaigns", tag: "Growth", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  // ours: ad packages, submission and serving
  Growth_ListAdPackages: { method: "get", path: "/api/v1/ads/packages", tag: "Growth", auth: "public", cache: "none", scopes: ["public:read"], idempotency: false, cost: 1, statuses: [200, 400, 401, 403, 500, 503] },
  Growth_CreateAdPackage: { method: "post", path: "/api/v1/admin/ads/packages", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Growth_CreateAdPackageVersion: { method: "post", path: "/api/v1/admin/ads/packages/{packageId}/versions", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Growth_SubmitAdCampaign: { method: "post", path: "/api/v1/ads/campaigns/{campaignId}/submit", tag: "Growth", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Growth_ServeAd: { method: "get", path: "/api/v1/ads/serve", tag: "Growth", auth: "public", cache: "none", scopes: ["public:read"], idempotency: false, cost: 1, statuses: [200, 400, 401, 403, 500, 503] },
  Growth_RecordAdEvent: { method: "post", path: "/api/v1/ads/events", tag: "Growth", auth: "public", cache: "none", scopes: ["public:read"], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] }
} as const satisfies OperationExpectations
