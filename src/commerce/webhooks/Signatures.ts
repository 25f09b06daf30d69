/**
 * Verifying a payment processor's webhook on the exact bytes received (spec §5.1.4), with the
 * provider's scheme, and reading what the event says about one of our payments
 * (docs/processor-webhooks.md):
 *
 * - `stripe`: the `Stripe-Signature` header (`t=<unix seconds>,v1=<HMAC-SHA256 hex>`), checked by
 *   the `stripe` package's `webhooks.constructEvent` (no API key: the static `Stripe.webhooks`),
 *   tolerance 300 s measured at the service's `Clock` time (its `receivedAt`);
 * - `standard`: Standard Webhooks' `webhook-id`, `webhook-timestamp` and `webhook-signature`
 *   headers, checked by the `standardwebhooks` package's `Webhook#verify`, the timestamp within
 *   300 s either way of the service's `Clock` time.
 *
 * The body is the text the request middleware read (src/http/RequestBody.ts: UTF-8, decoded once,
 * never parsed and re-serialised before this check), so the signature covers exactly what was sent.
 */
import { Either, Option, ParseResult, Redacted, Schema } from "effect"
import Stripe from "stripe"
import { Webhook, WebhookVerificationError } from "standardwebhooks"
import type { InvalidParam } from "../../../schema/problem.js"
import type { ProcessorProvider } from "./Config.js"
import { ProcessorEventInvalid, WebhookSignatureInvalid } from "./Errors.js"

/** How old (and, for `standard`, how far ahead) a signature's timestamp may be, in seconds. */
export const ToleranceSeconds = 300

/** What an event does to one of our payments. */
export type PaymentMove = "SUCCEEDED" | "FAILED" | "REFUNDED"

/** A verified event, read. */
export interface VerifiedEvent {
  /** The provider's event id: Stripe's `id` (`evt_…`), Standard Webhooks' `webhook-id`. */
  readonly eventId: string
  /** The event's type as sent (`payment_intent.succeeded`, `payment.succeeded`, …). */
  readonly eventType: string
  /** What it does to a payment, if it is of a type that moves one. */
  readonly move: Option.Option<PaymentMove>
  /** Our payment id the event carries (Stripe: `metadata.paymentId` or `client_reference_id`), if a uuid. */
  readonly paymentId: Option.Option<string>
  /** The processor's own reference of the payment (Stripe: the PaymentIntent id), for payments opened with it. */
  readonly reference: Option.Option<string>
}

/** The one 401 of every signature failure (nothing tells which check failed). */
export const signatureInvalid = () =>
  new WebhookSignatureInvalid({
    detail: "The request is not signed by a configured provider of this name, or its signature is not current."
  })

const UuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const uuidOf = (value: unknown): Option.Option<string> =>
  typeof value === "string" && UuidPattern.test(value) ? Option.some(value.toLowerCase()) : Option.none()

const stringOf = (value: unknown): Option.Option<string> =>
  typeof value === "string" && value.length > 0 && value.length <= 255 ? Option.some(value) : Option.none()

const Text = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255))
const Obj = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** The members of a Stripe event this service reads (others are allowed and ignored). */
const StripeEventShape = Schema.Struct({
  id: Text,
  type: Text,
  data: Schema.Struct({ object: Obj })
})

/** The members of a Standard Webhooks event of ours (the standard's `type`, `timestamp`, `data`). */
const StandardEventShape = Schema.Struct({
  type: Text,
  data: Schema.Struct({
    paymentId: Schema.optional(Schema.NullOr(Schema.String)),
    reference: Schema.optional(Schema.NullOr(Text))
  })
})

/** The 400 of a signed body that is not an event of its scheme, naming each member (never its value). */
const eventInvalid = (errors: ReadonlyArray<InvalidParam>) =>
  new ProcessorEventInvalid({
    detail: `The signed body is not an event of the provider's scheme: ${errors.map((e) => `${e.pointer || "(root)"} ${e.detail}`).join("; ")}`,
    errors: [...errors]
  })

const decodeEvent = <A, I>(schema: Schema.Schema<A, I>, value: unknown): Either.Either<A, ProcessorEventInvalid> =>
  Either.mapLeft(Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore", errors: "all" })(value), (error) =>
    eventInvalid(
      ParseResult.ArrayFormatter.formatErrorSync(error).slice(0, 20).map((issue) => ({
        in: "body" as const,
        pointer: issue.path.length === 0 ? "" : "/" + issue.path.map(String).join("/"),
        detail: issue._tag === "Missing" ? "is required" : "is not valid"
      }))
    ))

/** The body as JSON, or the 400 naming the body. */
const parseJson = (body: string): Either.Either<unknown, ProcessorEventInvalid> =>
  Either.try({
    try: () => JSON.parse(body) as unknown,
    catch: () => eventInvalid([{ in: "body", pointer: "", detail: "must be a JSON object" }])
  })

/** What a Stripe event of `type` on `object` does to our payment. */
const stripeMove = (type: string, object: Record<string, unknown>): Option.Option<PaymentMove> => {
  switch (type) {
    case "payment_intent.succeeded":
    case "checkout.session.async_payment_succeeded":
      return Option.some("SUCCEEDED")
    case "checkout.session.completed":
      // an asynchronous payment method completes the session unpaid: its outcome is a later event
      return object["payment_status"] === "paid" ? Option.some("SUCCEEDED") : Option.none()
    case "payment_intent.payment_failed":
    case "payment_intent.canceled":
    case "checkout.session.async_payment_failed":
      return Option.some("FAILED")
    case "charge.refunded":
      // a partial refund leaves the payment as it is; the charge is `refunded` once fully refunded
      return object["refunded"] === true ? Option.some("REFUNDED") : Option.none()
    default:
      return Option.none()
  }
}

/** Stripe's scheme: `Stripe.webhooks.constructEvent` on the exact body, at `nowMs`. */
const verifyStripe = (
  secret: string,
  headers: Readonly<Record<string, string | undefined>>,
  body: string,
  nowMs: number
): Either.Either<VerifiedEvent, WebhookSignatureInvalid | ProcessorEventInvalid> => {
  const header = headers["stripe-signature"]
  if (header === undefined || header === "") return Either.left(signatureInvalid())
  let parsed: unknown
  try {
    parsed = Stripe.webhooks.constructEvent(body, header, secret, ToleranceSeconds, undefined, nowMs)
  } catch (e) {
    // verified, but not JSON: the package parses after checking the signature
    return e instanceof SyntaxError ? Either.left(eventInvalid([{ in: "body", pointer: "", detail: "must be a JSON object" }])) : Either.left(signatureInvalid())
  }
  return Either.map(decodeEvent(StripeEventShape, parsed), (event) => {
    const object = event.data.object
    const metadata = typeof object["metadata"] === "object" && object["metadata"] !== null
      ? object["metadata"] as Record<string, unknown>
      : {}
    const paymentId = Option.orElse(uuidOf(metadata["paymentId"]), () => uuidOf(object["client_reference_id"]))
    // the PaymentIntent: the object itself, or the one a session or charge names
    const reference = event.type.startsWith("payment_intent.") ? stringOf(object["id"]) : stringOf(object["payment_intent"])
    return { eventId: event.id, eventType: event.type, move: stripeMove(event.type, object), paymentId, reference }
  })
}

/** Our Standard Webhooks event types, and what each does to the payment its `data` names. */
const standardMoves: Readonly<Record<string, PaymentMove>> = {
  "payment.succeeded": "SUCCEEDED",
  "payment.failed": "FAILED",
  "payment.refunded": "REFUNDED"
}

// The package checks the timestamp against the wall clock (`Date.now`) in `verifyTimestamp`; the
// service's time is its Clock's, so each verifier's `verifyTimestamp` is replaced by the same rule at
// that time. Checked here, so a package that renamed it fails at start-up instead of using the wall clock.
if (typeof (Webhook.prototype as unknown as Record<string, unknown>)["verifyTimestamp"] !== "function") {
  throw new Error("standardwebhooks' Webhook no longer has verifyTimestamp: see src/commerce/webhooks/Signatures.ts")
}

/** A `standardwebhooks` verifier whose timestamp window is ±{@link ToleranceSeconds} around `nowMs`. */
const standardVerifier = (secret: string, nowMs: number): Webhook => {
  const webhook = new Webhook(secret)
  const now = Math.floor(nowMs / 1000)
  Object.defineProperty(webhook, "verifyTimestamp", {
    value: (header: string): Date => {
      const timestamp = /^\d{1,12}$/.test(header) ? Number(header) : Number.NaN
      if (Number.isNaN(timestamp)) throw new WebhookVerificationError("Invalid Signature Headers")
      if (now - timestamp > ToleranceSeconds) throw new WebhookVerificationError("Message timestamp too old")
      if (timestamp > now + ToleranceSeconds) throw new WebhookVerificationError("Message timestamp too new")
      return new Date(timestamp * 1000)
    }
  })
  return webhook
}

/** The Standard Webhooks scheme: `Webhook#verify` on the exact body, at `nowMs`. */
const verifyStandard = (
  secret: string,
  headers: Readonly<Record<string, string | undefined>>,
  body: string,
  nowMs: number
): Either.Either<VerifiedEvent, WebhookSignatureInvalid | ProcessorEventInvalid> => {
  const id = headers["webhook-id"]
  const timestamp = headers["webhook-timestamp"]
  const signature = headers["webhook-signature"]
  if (id === undefined || timestamp === undefined || signature === undefined || id === "" || id.length > 255) {
    return Either.left(signatureInvalid())
  }
  try {
    standardVerifier(secret, nowMs).verify(body, { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature }, { jsonParse: false })
  } catch {
    return Either.left(signatureInvalid())
  }
  return Either.flatMap(parseJson(body), (parsed) =>
    Either.map(decodeEvent(StandardEventShape, parsed), (event) => ({
      eventId: id,
      eventType: event.type,
      move: Option.fromNullable(standardMoves[event.type]),
      paymentId: uuidOf(event.data.paymentId),
      reference: Option.fromNullable(event.data.reference)
    })))
}

/**
 * Verifies `body` (the exact text received) with `provider`'s scheme and secret at `nowMs` (the
 * Clock's time), then reads the event. Fails with `WebhookSignatureInvalid` (401, the one body of
 * every signature failure) or `ProcessorEventInvalid` (400: signed, but not an event of the scheme).
 */
export const verifyEvent = (
  provider: ProcessorProvider,
  headers: Readonly<Record<string, string | undefined>>,
  body: string,
  nowMs: number
): Either.Either<VerifiedEvent, WebhookSignatureInvalid | ProcessorEventInvalid> =>
  provider.scheme === "stripe"
    ? verifyStripe(Redacted.value(provider.secret), headers, body, nowMs)
    : verifyStandard(Redacted.value(provider.secret), headers, body, nowMs)
