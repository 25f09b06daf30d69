/**
 * The commerce area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The commerce area's operations, by operationId. */
export const operations = {
  Commerce_ListCommerceOrders: { method: "get", path: "/api/v1/orders", tag: "Commerce", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  // ours (spec §2.11, §3): orders, refunds, the admin rail and entitlements
  Commerce_CreateOrder: { method: "post", path: "/api/v1/orders", tag: "Commerce", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500, 503] },
  Commerce_GetOrder: { method: "get", path: "/api/v1/orders/{orderId}", tag: "Commerce", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Commerce_CancelOrder: { method: "post", path: "/api/v1/orders/{orderId}/cancel", tag: "Commerce", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Commerce_RefundOrder: { method: "post", path: "/api/v1/orders/{orderId}/refund", tag: "Commerce", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 422, 500, 503] },
  Commerce_ListEntitlements: { method: "get", path: "/api/v1/workspaces/{workspaceId}/entitlements", tag: "Commerce", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Commerce_RecordManualPayment: { method: "post", path: "/api/v1/admin/orders/{orderId}/payments", tag: "Commerce", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500] },
  Commerce_ResolveOrderReview: { method: "post", path: "/api/v1/admin/orders/{orderId}/review", tag: "Commerce", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 422, 500, 503] },
  Commerce_ReceiveProcessorWebhook: { method: "post", path: "/api/v1/webhooks/{provider}", tag: "Commerce", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  // payment rails: ours (docs/payments.md); the x402 resource takes no Idempotency-Key (the payment is its key)
  Commerce_PurchaseOfferWithX402: { method: "post", path: "/api/v1/x402/offers/{offerId}/purchase", tag: "Commerce", auth: "optional-user", cache: "none", scopes: ["commerce:buy"], idempotency: false, statuses: [200, 400, 401, 402, 403, 404, 409, 422, 500, 503] },
  Commerce_CreatePayment: { method: "post", path: "/api/v1/orders/{orderId}/payments", tag: "Commerce", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500, 503] }
} as const satisfies OperationExpectations
