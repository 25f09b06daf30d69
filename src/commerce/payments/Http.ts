/**
 * HTTP handlers of the payment rails (Commerce_PurchaseOfferWithX402, Commerce_CreatePayment). The
 * x402 resource adds its protocol headers to the answer: `PAYMENT-REQUIRED` on a 402, `PAYMENT-RESPONSE`
 * on the paid 200.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Api } from "../../api/Api.js"
import { CurrentPrincipal, currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Payments } from "./Payments.js"
import * as X402 from "./X402.js"

/** Sets `name: value` on the response when its status is `status`. */
const headerOn = (status: number, name: string, value: () => string) =>
  HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(response.status === status ? HttpServerResponse.setHeader(response, name, value()) : response)
  )

export const CommercePaymentsHttpLive = group(Api, "CommercePayments", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const envelope = yield* Envelope
    const baseUrl = (yield* AppConfig).publicBaseUrl.replace(/\/+$/, "")
    return handlers
      .handle("purchaseOfferWithX402", ({ headers, path, request, urlParams }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const quote = yield* payments.quoteX402({
            principal,
            offerId: path.offerId,
            workspaceId: urlParams.workspaceId,
            priceId: urlParams.priceId,
            quantity: urlParams.quantity ?? 1,
            resourceUrl: `${baseUrl}${request.url}`
          })
          let refusal: string | undefined
          yield* headerOn(402, X402.PaymentRequiredHeader, () => X402.encodeRequired({ ...quote.paymentRequired, ...(refusal !== undefined ? { error: refusal } : {}) }))
          const header = headers["payment-signature"]
          if (header === undefined) return yield* payments.paymentRequired(quote)
          const paid = yield* payments.payX402(quote, header).pipe(
            Effect.tapErrorTag("PaymentRejected", (e) => Effect.sync(() => refusal = e.detail))
          )
          yield* headerOn(200, X402.PaymentResponseHeader, () => X402.encodeResponse(paid.settlement))
          return yield* Effect.flatMap(payments.order(paid.orderId), envelope.data)
        }))
      .handle("createPayment", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          payments.createPayment({
            accountId: session.accountId,
            orderId: path.orderId,
            rail: payload.rail,
            payerAddress: payload.payerAddress,
            baseUrl
          })).pipe(Effect.flatMap(envelope.data)))
  }))
