/** Payment processor webhooks (spec §5.1.4; docs/processor-webhooks.md): the request's parts and the receipt. */
import { Schema } from "effect"
import { AnyJson, DateTimeZ, rule, Uuid } from "../../../schema/common.js"

/** `{provider}`: a configured provider's name (`PAYMENT_PROCESSOR_WEBHOOKS`). */
export const ProviderName = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9-]{0,39}$/, rule("must be 1-40 lower-case letters, digits or hyphens, starting with a letter or digit"))
).annotations({ description: "A configured payment processor's name (`PAYMENT_PROCESSOR_WEBHOOKS`), e.g. `stripe`" })

/** The signature headers of the two schemes (each provider sends its scheme's). */
export const ProcessorWebhookHeaders = Schema.Struct({
  "stripe-signature": Schema.optional(Schema.String).annotations({
    description: "Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\">` (several `v1` allowed)"
  }),
  "webhook-id": Schema.optional(Schema.String).annotations({
    description: "Standard Webhooks: the event's id (the key it is applied once by)"
  }),
  "webhook-timestamp": Schema.optional(Schema.String).annotations({
    description: "Standard Webhooks: unix seconds of the signature, within 300 s of the server's time"
  }),
  "webhook-signature": Schema.optional(Schema.String).annotations({
    description: "Standard Webhooks: `v1,<base64 HMAC-SHA256 of \"<id>.<timestamp>.<body>\">` (space-separated, several allowed)"
  })
})

/**
 * The event as the provider sends it: verified on its exact bytes, never re-serialised. Stripe's
 * Event (`id`, `type`, `data.object`), or for Standard Webhooks providers our event shape
 * `{type, timestamp, data: {paymentId?, reference?}}` (docs/processor-webhooks.md).
 */
export const ProcessorEvent = Schema.Record({ key: Schema.String, value: AnyJson }).annotations({
  identifier: "ProcessorEvent",
  description: "The provider's event, JSON, verified on its exact bytes: a Stripe Event (`id`, `type`, " +
    "`data.object`), or for Standard Webhooks providers `{type: payment.succeeded | payment.failed | payment.refunded, " +
    "timestamp, data: {paymentId (our payment's uuid), reference (the processor's reference)}}`"
})

/** What a received event did. */
export const ProcessorEventOutcome = Schema.Literal("APPLIED", "IGNORED", "UNMATCHED").annotations({
  description: "APPLIED: it moved its payment (and order); IGNORED: a type that moves no payment, or a move the " +
    "payment's state does not allow; UNMATCHED: it names no processor payment of ours"
})

/** The receipt of an event (spec §5.1.4): the first delivery's outcome, whether this delivery repeated it. */
export const ProcessorWebhookReceipt = Schema.Struct({
  provider: Schema.String,
  eventId: Schema.String,
  eventType: Schema.String,
  outcome: ProcessorEventOutcome,
  paymentId: Schema.NullOr(Uuid),
  /** True when the event had been received before: this delivery changed nothing. */
  duplicate: Schema.Boolean,
  /** When the event was first received (server time). */
  receivedAt: DateTimeZ
}).annotations({ identifier: "ProcessorWebhookReceipt" })
export type ProcessorWebhookReceipt = typeof ProcessorWebhookReceipt.Type
