/**
 * Verifying processor webhooks on their exact bytes (src/commerce/webhooks/Signatures.ts) and the
 * providers' setting (`PAYMENT_PROCESSOR_WEBHOOKS`, src/commerce/webhooks/Config.ts), with bodies
 * signed by the processors' own libraries: `stripe`'s `webhooks.generateTestHeaderString` and
 * `standardwebhooks`' `Webhook#sign`. The HTTP receiver is tested in ProcessorWebhooks.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import Stripe from "stripe"
import { Webhook } from "standardwebhooks"
import { parseProcessorWebhooks, processorWebhookSettings } from "../../src/commerce/webhooks/Config.js"
import { verifyEvent } from "../../src/commerce/webhooks/Signatures.js"

const stripeSecret = "whsec_test_0123456789abcdefghij"
const standardSecret = `whsec_${randomBytes(32).toString("base64")}`
const stripe = { scheme: "stripe" as const, secret: Redacted.make(stripeSecret) }
const standard = { scheme: "standard" as const, secret: Redacted.make(standardSecret) }

/** A fixed server time (ms) and the same in unix seconds. */
const nowMs = Date.parse("2026-06-01T00:00:00Z")
const nowS = nowMs / 1000

const paymentId = "0190ffff-0000-7000-8000-00000000abcd"

const stripeBody = (type: string, object: Record<string, unknown>, id = "evt_1") =>
  // not JSON.stringify's spacing: a processor's own formatting must be verified as sent
  `{\n  "id": "${id}",\n  "object": "event",\n  "type": "${type}",\n  "data": {\n    "object": ${JSON.stringify(object, null, 2)}\n  }\n}`

const stripeHeaders = (body: string, timestamp = nowS, secret = stripeSecret) => ({
  "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp })
})

const standardHeaders = (body: string, id = "msg_1", timestamp = nowS, secret = standardSecret) => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": new Webhook(secret).sign(id, new Date(timestamp * 1000), body)
})

const tag = (r: Either.Either<unknown, { readonly _tag: string }>) => Either.isLeft(r) ? r.left._tag : "Right"

describe("Stripe's scheme", () => {
  it("reads a signed payment_intent.succeeded: our payment id from metadata, the PaymentIntent as reference", () => {
    const body = stripeBody("payment_intent.succeeded", { id: "pi_123", object: "payment_intent", metadata: { paymentId } })
    const event = Either.getOrThrow(verifyEvent(stripe, stripeHeaders(body), body, nowMs))
    expect(event).toEqual({
      eventId: "evt_1",
      eventType: "payment_intent.succeeded",
      move: Option.some("SUCCEEDED"),
      paymentId: Option.some(paymentId),
      reference: Option.some("pi_123")
    })
  })

  it("maps sessions, failures and full refunds; a partial refund or an unpaid session moves nothing", () => {
    const read = (type: string, object: Record<string, unknown>) => {
      const body = stripeBody(type, object)
      return Either.getOrThrow(verifyEvent(stripe, stripeHeaders(body), body, nowMs))
    }
    const session = read("checkout.session.completed", { id: "cs_1", payment_status: "paid", client_reference_id: paymentId, payment_intent: "pi_9" })
    expect([session.move, session.paymentId, session.reference]).toEqual([Option.some("SUCCEEDED"), Option.some(paymentId), Option.some("pi_9")])
    expect(read("checkout.session.completed", { id: "cs_1", payment_status: "unpaid" }).move).toEqual(Option.none())
    expect(read("payment_intent.payment_failed", { id: "pi_1" }).move).toEqual(Option.some("FAILED"))
    expect(read("charge.refunded", { id: "ch_1", refunded: true, payment_intent: "pi_1" }).move).toEqual(Option.some("REFUNDED"))
    expect(read("charge.refunded", { id: "ch_1", refunded: false, payment_intent: "pi_1" }).move).toEqual(Option.none())
    expect(read("customer.created", { id: "cus_1" }).move).toEqual(Option.none())
    // a payment id that is not a uuid names nothing of ours
    expect(read("payment_intent.succeeded", { id: "pi_1", metadata: { paymentId: "42" } }).paymentId).toEqual(Option.none())
  })

  it("refuses a changed byte, another secret, a stale or missing signature: the one 401", () => {
    const body = stripeBody("payment_intent.succeeded", { id: "pi_123", metadata: { paymentId } })
    const headers = stripeHeaders(body)
    const tampered = body.replace("pi_123", "pi_124")
    expect(tag(verifyEvent(stripe, headers, tampered, nowMs))).toBe("WebhookSignatureInvalid")
    // one byte of whitespace: what re-serialising a parsed body would change
    expect(tag(verifyEvent(stripe, headers, body.replace("\n", ""), nowMs))).toBe("WebhookSignatureInvalid")
    expect(tag(verifyEvent(stripe, stripeHeaders(body, nowS, "whsec_another_secret_0123456789"), body, nowMs))).toBe("WebhookSignatureInvalid")
    expect(tag(verifyEvent(stripe, headers, body, nowMs + 301_000))).toBe("WebhookSignatureInvalid")
    expect(tag(verifyEvent(stripe, headers, body, nowMs + 300_000))).toBe("Right")
    expect(tag(verifyEvent(stripe, {}, body, nowMs))).toBe("WebhookSignatureInvalid")
    expect(tag(verifyEvent(stripe, { "stripe-signature": "garbage" }, body, nowMs))).toBe("WebhookSignatureInvalid")
  })

  it("answers 400 for a signed body that is not an event, naming the member", () => {
    const notJson = "not json"
    expect(tag(verifyEvent(stripe, stripeHeaders(notJson), notJson, nowMs))).toBe("ProcessorEventInvalid")
    const noType = `{"id":"evt_2","data":{"object":{}}}`
    const refused = verifyEvent(stripe, stripeHeaders(noType), noType, nowMs)
    expect(Either.isLeft(refused) && refused.left._tag === "ProcessorEventInvalid" ? refused.left.errors : []).toEqual([
      { in: "body", pointer: "/type", detail: "is required" }
    ])
  })
})

describe("the Standard Webhooks scheme", () => {
  const body = JSON.stringify({ type: "payment.succeeded", timestamp: "2026-06-01T00:00:00Z", data: { paymentId, reference: "acme_1" } })

  it("reads a signed payment.succeeded by its webhook-id", () => {
    const event = Either.getOrThrow(verifyEvent(standard, standardHeaders(body), body, nowMs))
    expect(event).toEqual({
      eventId: "msg_1",
      eventType: "payment.succeeded",
      move: Option.some("SUCCEEDED"),
      paymentId: Option.some(paymentId),
      reference: Option.some("acme_1")
    })
  })

  it("measures the timestamp against the server's time, 300 s either way, not the wall clock", () => {
    // the server's time is far from the wall clock's here: only it counts
    expect(tag(verifyEvent(standard, standardHeaders(body, "m", nowS - 300), body, nowMs))).toBe("Right")
    expect(tag(verifyEvent(standard, standardHeaders(body, "m", nowS - 301), body, nowMs))).toBe("WebhookSignatureInvalid")
    expect(tag(verifyEvent(standard, standardHeaders(body, "m", nowS + 301), body, nowMs))).toBe("WebhookSignatureInvalid")
  })

  it("refuses a changed byte, another id, another secret or missing headers: the one 401", () => {
    const headers = standardHeaders(body)
    expect(tag(verifyEvent(standard, headers, body.replace("acme_1", "acme_2"), nowMs))).toBe("WebhookSignatureInvalid")
    expect(tag(verifyEvent(standard, { ...headers, "webhook-id": "msg_2" }, body, nowMs))).toBe("WebhookSignatureInvalid")
    const other = `whsec_${randomBytes(32).toString("base64")}`
    expect(tag(verifyEvent(standard, standardHeaders(body, "msg_1", nowS, other), body, nowMs))).toBe("WebhookSignatureInvalid")
    expect(tag(verifyEvent(standard, { "webhook-id": "msg_1" }, body, nowMs))).toBe("WebhookSignatureInvalid")
    // a Stripe signature is no Standard Webhooks signature
    expect(tag(verifyEvent(standard, stripeHeaders(body), body, nowMs))).toBe("WebhookSignatureInvalid")
  })
})

describe("PAYMENT_PROCESSOR_WEBHOOKS", () => {
  it("parses named providers of both schemes", () => {
    const providers = Either.getOrThrow(parseProcessorWebhooks(`stripe=stripe:${stripeSecret}, acme=standard:${standardSecret}`))
    expect([...providers.keys()]).toEqual(["stripe", "acme"])
    expect(providers.get("stripe")!.scheme).toBe("stripe")
    expect(Redacted.value(providers.get("acme")!.secret)).toBe(standardSecret)
    expect(Either.getOrThrow(parseProcessorWebhooks("")).size).toBe(0)
  })

  it("refuses malformed entries, naming the entry and never its secret", () => {
    const refusals = [
      "stripe",
      "Stripe=stripe:whsec_0123456789abcdefghij",
      "a=paypal:whsec_0123456789abcdefghij",
      "a=stripe:short",
      "a=standard:whsec_notbase64!!",
      `a=standard:whsec_${Buffer.alloc(8).toString("base64")}`,
      `a=stripe:${stripeSecret},a=standard:${standardSecret}`
    ]
    for (const value of refusals) {
      const result = parseProcessorWebhooks(value)
      expect(Either.isLeft(result), value).toBe(true)
      for (const secret of value.split(",").map((entry) => entry.split(":").slice(1).join(":")).filter((x) => x !== "")) {
        expect(Either.isLeft(result) ? result.left : "").not.toContain(secret)
      }
    }
  })

  it.effect("is read at start-up from the environment as a redacted setting, none by default", () =>
    Effect.gen(function*() {
      const none = yield* Effect.withConfigProvider(processorWebhookSettings, ConfigProvider.fromMap(new Map()))
      expect(none.processorWebhooks.providers.size).toBe(0)
      const bad = yield* Effect.either(
        Effect.withConfigProvider(processorWebhookSettings, ConfigProvider.fromMap(new Map([["PAYMENT_PROCESSOR_WEBHOOKS", "x=stripe:whsec_short"]])))
      )
      expect(Either.isLeft(bad)).toBe(true)
      expect(String(Either.isLeft(bad) ? bad.left : "")).toContain("PAYMENT_PROCESSOR_WEBHOOKS entry 1 (x)")
    }))
})
