/**
 * Payment processor webhooks (spec §5.1.4, §5.1.6; docs/processor-webhooks.md): the PROCESSOR
 * payment rail's receiver. A group of its own (`CommerceWebhooks`) under the spec's Commerce tag
 * (`OpenApi.Title`), like the Mesh and Analytics groups under Social.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Data } from "../../../schema/envelope.js"
import { operation } from "../../api/operation.js"
import { ProcessorEventInvalid, WebhookSignatureInvalid } from "./Errors.js"
import { ProcessorEvent, ProcessorWebhookHeaders, ProcessorWebhookReceipt, ProviderName } from "./Schemas.js"

export class CommerceWebhooksApi extends HttpApiGroup.make("CommerceWebhooks")
  .add(
    HttpApiEndpoint.post("receiveProcessorWebhook", "/api/v1/webhooks/:provider")
      .setPath(Schema.Struct({ provider: ProviderName }))
      .setHeaders(ProcessorWebhookHeaders)
      .setPayload(ProcessorEvent)
      .addSuccess(Data(ProcessorWebhookReceipt))
      .pipe(
        operation({
          id: "Commerce_ReceiveProcessorWebhook",
          auth: "public",
          cache: "none",
          statuses: [400, 401, 500, 503],
          summary: "Receive a payment processor's signed event",
          description: "The PROCESSOR payment rail: a payment processor configured in `PAYMENT_PROCESSOR_WEBHOOKS` " +
            "posts its events here (`{provider}` is its configured name). No session or API key: the signature is the " +
            "authentication (spec §5.1.4), verified on the exact bytes received, with the provider's scheme and a secret " +
            "used for nothing else: `stripe` (the `Stripe-Signature` header, Stripe's HMAC-SHA256 scheme, at most 300 s " +
            "old) or `standard` (Standard Webhooks' `webhook-id`, `webhook-timestamp`, `webhook-signature`, within 300 s). " +
            "An unknown provider, missing or malformed signature headers, a signature that does not sign these exact " +
            "bytes (one byte changed) and a stale timestamp all answer the same 401 `webhook-signature-invalid` and " +
            "change nothing. A signed body that is not an event of the scheme is 400 `processor-event-invalid`. " +
            "Each event is applied once, by (provider, event id) (Stripe's `id`, Standard Webhooks' `webhook-id`), in " +
            "the transaction of its effect: a payment success (Stripe `payment_intent.succeeded`, " +
            "`checkout.session.completed` when paid, `checkout.session.async_payment_succeeded`; standard " +
            "`payment.succeeded`) confirms the payment, so its order is PAID and its entitlement ACTIVE; a failure " +
            "(`payment_intent.payment_failed`, `payment_intent.canceled`, `checkout.session.async_payment_failed`; " +
            "`payment.failed`) fails it; a full refund (`charge.refunded`; `payment.refunded`) is recorded (it moves " +
            "nothing until refunds complete through the settlement). The payment is ours by its id in the event (Stripe `metadata.paymentId` or `client_reference_id`; " +
            "standard `data.paymentId`) or by the processor's reference it was opened with (the PaymentIntent id; " +
            "`data.reference`), and must be a PROCESSOR payment. Answers 200 with the receipt: `outcome` APPLIED, " +
            "IGNORED (a type that moves no payment, or a move the payment's state does not allow) or UNMATCHED (no payment of ours); a repeated delivery of an event " +
            "answers 200 with the first receipt and `duplicate` true, and changes nothing (processors retry until 2xx).",
          errors: [WebhookSignatureInvalid, ProcessorEventInvalid]
        })
      )
  )
  .annotate(OpenApi.Title, "Commerce")
  .annotate(OpenApi.Description, "Commerce: payment processor webhooks")
{}
