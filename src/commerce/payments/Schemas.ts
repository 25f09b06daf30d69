/** Wire shapes of the payment rails (docs/payments.md). */
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { TransactionIntent } from "../../../schema/transactionIntents.js"
import { CommerceOrder, Payment } from "../Schemas.js"

/** Path of the x402 resource of an offer. */
export const OfferPurchasePath = Schema.Struct({ offerId: Uuid })

/**
 * Query of the x402 resource: who buys (`workspaceId`, required with a session; an API key buys for
 * its own workspace), which price (`priceId`, default the offer's current price payable over x402)
 * and how many (`quantity`, 1 to 1000, default 1).
 */
export const OfferPurchaseQuery = Schema.Struct({
  workspaceId: Schema.optional(Uuid),
  priceId: Schema.optional(Uuid),
  quantity: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 1000)))
})

/** Headers of the x402 resource: the payment, when the client pays (x402 v2 `PAYMENT-SIGNATURE`, base64 JSON). */
export const OfferPurchaseHeaders = Schema.Struct({
  "payment-signature": Schema.optional(Schema.String.pipe(Schema.maxLength(16_384)).annotations({
    description: "x402 v2 `PAYMENT-SIGNATURE`: base64 of the JSON payment payload (scheme `exact`, an EIP-3009 authorization)"
  }))
})

/** Path of an order's payments. */
export const OrderPaymentsPath = Schema.Struct({ orderId: Uuid })

/** Commerce_CreatePayment's body: the rail, and for ONCHAIN the paying wallet (default: the buyer's latest on the order's network). */
export const CreatePaymentRequest = Schema.Struct({
  rail: Schema.Literal("ONCHAIN", "PROCESSOR", "X402"),
  payerAddress: Schema.optional(Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/)))
}).annotations({ identifier: "CreatePaymentRequest" })

/**
 * A payment opened on an order: the order after it, the payment (null for X402: the payment is made
 * at the resource), the ONCHAIN transfer's transaction intent for the buyer to sign and submit
 * (`Wallets_SubmitTransactionIntent`), and for X402 the resource URL to call with an x402 client.
 */
export const CreatedPayment = Schema.Struct({
  order: CommerceOrder,
  payment: Schema.NullOr(Payment),
  transactionIntent: Schema.NullOr(TransactionIntent),
  x402ResourceUrl: Schema.NullOr(Schema.String)
}).annotations({ identifier: "CreatedPayment" })
export type CreatedPayment = typeof CreatedPayment.Type
