/**
 * The commerce area's face: what other areas may use — the order, payment and entitlement state
 * machine (`Settlement.ts`) that every rail drives, and its problem causes.
 */
export {
  attachTransactionIntent,
  type ConfirmedPayment,
  confirmPayment,
  DefaultPaymentWindowMillis,
  failPayment,
  findPayment,
  findPaymentByReference,
  observePayment,
  openPayment,
  type PaymentRail,
  type PaymentRecord,
  type PlacedOrder,
  placeOrder,
  revertPayment
} from "./Settlement.js"
/** Entitlements gate an agent's runtime (docs/runtime-access.md). */
export { meterRun, type RunMeter, runtimeCustomer, type RuntimeCustomer, runtimeOffers } from "./entitlements/RuntimeAccess.js"
export { OfferNotPurchasable, OrderNotFound, OrderNotPayable, PaymentReferenceUsed } from "./Errors.js"
/** Refunds (docs/commerce.md): the processor's refund event completes a PROCESSOR refund with this. */
export { completeRefund } from "./orders/Refunds.js"
