/**
 * The commerce/orders area: placing, cancelling and refunding orders, the admin payment rail,
 * entitlements, the clock that expires unpaid orders and moves entitlements (`Lifecycle.ts`), and
 * the outcome of refund intents (`intentOutcomes`). Listed in `src/areas.ts`. (Its migration is the
 * commerce area's, `src/commerce/Migrations.ts`.)
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { OrdersHttpLive } from "./Http.js"
import { OrderLifecycleLive } from "./Lifecycle.js"
import { Orders } from "./Orders.js"
import { refundOutcome, RefundPurpose } from "./Refunds.js"

/** The orders' handlers, clock and refund outcomes (see `src/Area.ts`). */
export const OrdersArea = {
  name: "commerce/orders",
  http: OrdersHttpLive.pipe(Layer.provide([Orders.Default])),
  workflows: OrderLifecycleLive,
  intentOutcomes: { [RefundPurpose]: refundOutcome }
} satisfies Area
