/**
 * The problem causes of the payment rails (the shared ones are in `schema/errors.ts`). Each is one
 * `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/**
 * 402 `payment-rejected`: the `PAYMENT-SIGNATURE` payment was refused by the facilitator's
 * verification or settlement (its reason code in `detail`); `PAYMENT-REQUIRED` holds the
 * requirements again.
 */
export class PaymentRejected extends Problem<PaymentRejected>()("PaymentRejected", {
  status: 402, type: "payment-rejected",
  meaning: "the facilitator refused the payment (verification or settlement): `detail` gives its reason code; `PAYMENT-REQUIRED` holds the requirements again"
}) {}
/**
 * 422 `offer-not-payable`: the offer's price cannot be paid on the rail: no current price on an
 * EVM network in an ERC-20 token, or the offer has no payout address.
 */
export class OfferNotPayable extends Problem<OfferNotPayable>()("OfferNotPayable", {
  status: 422, type: "offer-not-payable",
  meaning: "the offer's price cannot be paid on this rail: no current price in an ERC-20 token of an EVM network, or no payout address"
}) {}
/** 422 `payer-wallet-required`: an ONCHAIN payment needs a wallet of the buyer's on the order's network. */
export class PayerWalletRequired extends Problem<PayerWalletRequired>()("PayerWalletRequired", {
  status: 422, type: "payer-wallet-required",
  meaning: "an ONCHAIN payment needs a wallet the buyer registered on the order's network (or the one named is not theirs)"
}) {}
/** 503 `x402-facilitator-unavailable`: the x402 facilitator did not answer, or answered outside the protocol. */
export class FacilitatorUnavailable extends Problem<FacilitatorUnavailable>()("FacilitatorUnavailable", {
  status: 503, type: "x402-facilitator-unavailable",
  meaning: "the x402 facilitator did not answer, or answered outside the protocol; nothing was recorded"
}) {}
