/**
 * The payment rails' contract (docs/payments.md): the x402 resource of an offer and the payments of
 * an order. Its own group ("CommercePayments"), under the spec's Commerce tag (`OpenApi.Title`).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Data } from "../../../schema/envelope.js"
import {
  ChainRpcUnavailable,
  ConfigurationMissing,
  Forbidden,
  InvalidRequest,
  PaymentRequired,
  RoleRequired,
  Unauthenticated
} from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { OfferNotPurchasable, OrderNotFound, OrderNotPayable, PaymentReferenceUsed } from "../Errors.js"
import { CommerceOrder } from "../Schemas.js"
import { FacilitatorUnavailable, OfferNotPayable, PayerWalletRequired, PaymentRejected } from "./Errors.js"
import {
  CreatedPayment,
  CreatePaymentRequest,
  OfferPurchaseHeaders,
  OfferPurchasePath,
  OfferPurchaseQuery,
  OrderPaymentsPath
} from "./Schemas.js"

export class CommercePaymentsApi extends HttpApiGroup.make("CommercePayments")
  .add(
    HttpApiEndpoint.post("purchaseOfferWithX402", "/api/v1/x402/offers/:offerId/purchase")
      .setPath(OfferPurchasePath)
      .setUrlParams(OfferPurchaseQuery)
      .setHeaders(OfferPurchaseHeaders)
      .addSuccess(Data(CommerceOrder))
      .pipe(
        operation({
          id: "Commerce_PurchaseOfferWithX402",
          permission: "commerce.buy",
          auth: "optional-user",
          cache: "none",
          scopes: ["commerce:buy"],
          statuses: [400, 401, 402, 403, 404, 409, 422, 500, 503],
          summary: "Buy an offer over x402: 402 with the payment requirements, then the order paid by the signed payment",
          description: [
            "The x402 v2 resource of a published offer (https://x402.org). The caller is a member with `commerce.buy` of",
            "the buying workspace (`workspaceId`, required with a session) or an API key with the `commerce:buy` scope",
            "(it buys for its own workspace). `priceId` picks the price (default: the offer's current price in an ERC-20",
            "token of an EVM network), `quantity` how many (1-1000, default 1).",
            "",
            "Without `PAYMENT-SIGNATURE`: 402 `payment-required`; the `PAYMENT-REQUIRED` header is base64 of the JSON",
            "`{x402Version: 2, resource: {url, description, mimeType}, accepts: [{scheme: \"exact\", network (CAIP-2),",
            "asset (token address), amount (price units × quantity, a decimal string), payTo (the offer's payout",
            "address), maxTimeoutSeconds, extra: {name, version} (the token's EIP-712 domain)}]}`; the body is the",
            "problem document.",
            "",
            "With `PAYMENT-SIGNATURE` (base64 JSON of an x402 v2 payment payload: an EIP-3009 `TransferWithAuthorization`",
            "signed by the payer): the facilitator (`X402_FACILITATOR_URL`) verifies it, the order is placed, the X402",
            "payment opened, the facilitator settles it on chain and the payment is confirmed: 200 with the order",
            "(ACTIVE, its entitlement ACTIVE) and the `PAYMENT-RESPONSE` header (base64 JSON `{success, transaction,",
            "network, payer}`). A refused verification or settlement is 402 `payment-rejected` (its reason code in",
            "`detail`) with `PAYMENT-REQUIRED` again, and leaves nothing behind.",
            "",
            "Exactly once: the payment's natural key is its payer and EIP-3009 nonce. The same `PAYMENT-SIGNATURE` again",
            "answers the same order and settlement (never a second order, never a second transfer); used for another",
            "purchase it is 402 `payment-rejected`. `Idempotency-Key` is not used here: an x402 client repeats the",
            "request with the payment added, which an idempotency record would answer with the stored 402."
          ].join("\n"),
          errors: [
            Unauthenticated,
            InvalidRequest,
            PaymentRequired,
            PaymentRejected,
            Forbidden,
            RoleRequired,
            OfferNotPurchasable,
            OfferNotPayable,
            PaymentReferenceUsed,
            ConfigurationMissing,
            FacilitatorUnavailable,
            ChainRpcUnavailable
          ]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createPayment", "/api/v1/orders/:orderId/payments")
      .setPath(OrderPaymentsPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreatePaymentRequest)
      .addSuccess(Data(CreatedPayment), { status: 201 })
      .pipe(
        operation({
          id: "Commerce_CreatePayment",
          permission: "commerce.buy",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500, 503],
          summary: "Open a payment of an order on a rail (ONCHAIN transfer intent, PROCESSOR reference, X402 resource)",
          description: [
            "Opens a payment of an order of the caller's workspace (order CREATED or PAYMENT_PENDING → PAYMENT_PENDING):",
            "",
            "- `ONCHAIN`: a PENDING payment and the transaction intent of an ERC-20 `transfer` of the order's total to the",
            "  offer's payout address, signed by the buyer's wallet (`payerAddress`, default the buyer's latest wallet on",
            "  the order's network): sign its `unsignedTransaction` and submit it with `Wallets_SubmitTransactionIntent`.",
            "  The block watcher moves the payment: OBSERVED with the transfer's block, CONFIRMED at the network's depth",
            "  (order ACTIVE, entitlement ACTIVE), back to PENDING when a reorganisation drops the block, FAILED when the",
            "  transfer fails or the intent expires unsigned.",
            "- `PROCESSOR`: a PENDING payment whose reference is its own id, to hand to the payment processor as metadata;",
            "  the processor's signed webhook confirms it.",
            "- `X402`: no payment yet; `x402ResourceUrl` is the x402 resource (`Commerce_PurchaseOfferWithX402`) of the",
            "  order's offer price, to call with an x402 client.",
            "",
            "Amounts are the order's total in minor units of its asset (decimal strings)."
          ].join("\n"),
          errors: [
            InvalidRequest,
            OrderNotFound,
            RoleRequired,
            OrderNotPayable,
            PaymentReferenceUsed,
            OfferNotPayable,
            PayerWalletRequired,
            ConfigurationMissing,
            ChainRpcUnavailable
          ]
        })
      )
  )
  .annotate(OpenApi.Title, "Commerce")
  .annotate(OpenApi.Description, "Commerce: payments over x402, on chain and through a processor")
{}
