/**
 * The problem causes of Commerce (the shared ones are in `schema/errors.ts`). Each is one
 * `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `order-not-found`: no such order visible to the caller. */
export class OrderNotFound extends Problem<OrderNotFound>()("OrderNotFound", {
  status: 404, type: "order-not-found", meaning: "no such order visible to the caller"
}) {}
/** 422 `offer-not-purchasable`: the offer is not published, or the price is not in effect now. */
export class OfferNotPurchasable extends Problem<OfferNotPurchasable>()("OfferNotPurchasable", {
  status: 422, type: "offer-not-purchasable", meaning: "the offer is not published or the price is not in effect now"
}) {}
/** 409 `order-not-payable`: the order is past the states a payment may be opened in (paid, expired, cancelled …). */
export class OrderNotPayable extends Problem<OrderNotPayable>()("OrderNotPayable", {
  status: 409, type: "order-not-payable", meaning: "the order no longer takes payments (paid, expired, cancelled or refunded)"
}) {}
/** 409 `payment-reference-used`: the rail's payment reference already pays another order. */
export class PaymentReferenceUsed extends Problem<PaymentReferenceUsed>()("PaymentReferenceUsed", {
  status: 409, type: "payment-reference-used", meaning: "the rail's payment reference already pays another order"
}) {}
