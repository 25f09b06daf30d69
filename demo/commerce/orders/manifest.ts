/**
 * The commerce/orders area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of `/docs`,
 * checked by test/demo/Manifest.test.ts), run in this order.
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoOrders } from "../seed.js"
import { DemoWorkspaces } from "../../workspaces/seed.js"

/** The price of Acme's published Pro plan (demo/services/seed.ts): 10 USDC (10000000 units) on Base. */
export const DemoPublishedPriceId = "0190000d-0000-7000-8000-000000000002"

const order = (number: string) => DemoOrders.find((o) => o.number === number)!

/** The commerce/orders area's demo requests, by operationId. */
export const OrdersManifest = {
  Commerce_CreateOrder: {
    as: "outsider",
    path: {},
    query: {},
    body: { offerPriceId: DemoPublishedPriceId, quantity: 2, workspaceId: DemoWorkspaces.outsider.id },
    note: "The outsider (a member of two workspaces, so `workspaceId` is needed) orders two Pro plans of Acme's: 20000000 units."
  },
  Commerce_GetOrder: { as: "owner", path: { orderId: order("ORD-2026-0001").id }, query: {}, body: null },
  Commerce_CancelOrder: {
    as: "outsider",
    path: { orderId: order("ORD-2026-0007").id },
    query: {},
    body: { expectedVersion: 1 }
  },
  Commerce_RefundOrder: {
    as: "owner",
    path: { orderId: order("ORD-2026-0003").id },
    query: {},
    body: { expectedVersion: 3, reason: "The buyer asked within the 7 days of the terms." },
    note: "Acme (the seller) refunds the outsider's Starter plan, paid on the ADMIN rail (a bank transfer): REFUNDED at once."
  },
  Commerce_ListEntitlements: { as: "owner", path: { workspaceId: DemoWorkspaces.acme.id }, query: { limit: 10 }, body: null },
  Commerce_RecordManualPayment: {
    as: "admin",
    path: { orderId: order("ORD-2026-0002").id },
    query: {},
    body: { units: "2500000000", note: "Bank transfer ref. ACME-2026-0212" }
  },
  Commerce_ResolveOrderReview: {
    as: "admin",
    path: { orderId: order("ORD-2026-0001").id },
    query: {},
    body: { expectedVersion: 3, resolution: "ACCEPT", note: "Payment verified with the bank." },
    note: "No demo order is in MANUAL_REVIEW (a payment confirmed after its order was cancelled or expired), so the demo answers 409 invalid-state.",
    problem: { status: 409, type: "invalid-state" }
  }
} satisfies Record<string, ManifestOperation>
