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
export { OfferNotPurchasable, OrderNotFound, OrderNotPayable, PaymentReferenceUsed } from "./Errors.js"
