/**
 * The payment rails' entries of the demo manifest (`demo/manifest.ts`; checked by
 * test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoOrders } from "../seed.js"
import { DemoOffers } from "../../services/seed.js"
import { DemoWorkspaces } from "../../workspaces/seed.js"

/** The payment rails' demo requests, by operationId. */
export const CommercePaymentsManifest = {
  Commerce_PurchaseOfferWithX402: {
    as: "owner",
    path: { offerId: DemoOffers.published.id },
    query: { workspaceId: DemoWorkspaces.acme.id, quantity: 1 },
    body: null,
    note: "The demo's prices are in assets without a contract address (no CAIP-19 id) and its offers have no payout " +
      "address, so no demo price is payable over x402: 422. With a chain (`npm run demo:chain`) the resource answers 402 " +
      "with the PAYMENT-REQUIRED requirements.",
    problem: { status: 422, type: "offer-not-payable" }
  },
  Commerce_CreatePayment: {
    as: "outsider",
    path: { orderId: DemoOrders.find((o) => o.number === "ORD-2026-0008")!.id },
    query: {},
    body: { rail: "PROCESSOR" },
    note: "A PROCESSOR payment of the outsider's PAYMENT_PENDING order: its reference (its own id) goes to the processor as metadata."
  }
} satisfies Record<string, ManifestOperation>
