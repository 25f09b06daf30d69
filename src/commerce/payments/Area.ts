/**
 * The commerce area's payment rails (docs/payments.md): the x402 resource of an offer, the payments
 * of an order, and the ONCHAIN payments' intent outcomes (`intentOutcomes`, purpose kind
 * `commerce.payment`). Listed in `src/areas.ts`.
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { CommercePaymentsHttpLive } from "./Http.js"
import { paymentOutcome } from "./Outcomes.js"
import { PaymentPurpose, Payments } from "./Payments.js"

/** The payment rails' handlers and intent outcomes (see `src/Area.ts`). */
export const CommercePaymentsArea = {
  name: "commerce/payments",
  http: CommercePaymentsHttpLive.pipe(Layer.provide([Payments.Default])),
  intentOutcomes: { [PaymentPurpose]: paymentOutcome }
} satisfies Area
