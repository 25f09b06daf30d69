/**
 * POST /api/v1/webhooks/{provider} (Commerce_ReceiveProcessorWebhook, spec §5.1.4; docs/processor-webhooks.md):
 * real HTTP through the test server, bodies signed by the processors' own libraries (`stripe`'s
 * `webhooks.generateTestHeaderString`, `standardwebhooks`' `Webhook#sign`), payments opened by the
 * commerce settlement on the PROCESSOR rail. A changed byte, a stale timestamp, an unknown provider
 * and a replayed event change nothing.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import Stripe from "stripe"
import { Webhook } from "standardwebhooks"
import { IdsSequence } from "../../layers/Ids.js"
import { openPayment, placeOrder } from "../../src/commerce/index.js"
import { DemoOffers } from "../../demo/services/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { call, expectProblem } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"

const stripeSecret = "whsec_test_processor_webhooks_0123456789"
const standardSecret = `whsec_${randomBytes(32).toString("base64")}`

const server = makeTestServer({
  processorWebhooks: {
    providers: new Map([
      ["stripe", { scheme: "stripe", secret: Redacted.make(stripeSecret) }],
      ["acme", { scheme: "standard", secret: Redacted.make(standardSecret) }]
    ])
  }
})

/** The demo price of the PUBLISHED "pro" offer (10 USDC). */
const publishedPrice = "0190000d-0000-7000-8000-000000000002"
const nowS = TestEpoch.getTime() / 1000

/** An order of the outsider workspace with a PENDING payment on `rail` (`reference`: the processor's). */
const pendingPayment = (rail: "PROCESSOR" | "X402" = "PROCESSOR", reference: string | null = null) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE service_offers SET entitlement_days = 30, grace_days = 3, entitlement_code = 'PRO_RESEARCH'
      WHERE id = ${DemoOffers.published.id}`
    const order = yield* placeOrder({
      workspaceId: DemoWorkspaces.outsider.id, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: null
    })
    const payment = yield* openPayment({ orderId: order.id, rail, reference, transactionIntentId: null, expiresAt: order.paymentDueAt })
    return { orderId: order.id, paymentId: payment.id }
  })

const stateOf = (ids: { readonly orderId: string; readonly paymentId: string }) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ order: string; version: number; payment: string; entitlements: number }>`
      SELECT o.state AS order, o.version::int AS version, p.state AS payment,
        (SELECT count(*)::int FROM entitlements e WHERE e.order_id = o.id AND e.state = 'ACTIVE') AS entitlements
      FROM orders o JOIN payments p ON p.order_id = o.id WHERE o.id = ${ids.orderId} AND p.id = ${ids.paymentId}`
  ).pipe(Effect.map((rows) => rows[0]!))

const eventRows = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ n: number }>`SELECT count(*)::int AS n FROM processor_webhook_events`).pipe(Effect.map((rows) => rows[0]!.n))

/** A Stripe event body, formatted as Stripe does (two-space indentation, newlines). */
const stripeEvent = (id: string, type: string, object: Record<string, unknown>) =>
  JSON.stringify({ id, object: "event", api_version: "2025-10-29.clover", type, data: { object } }, null, 2)

const postStripe = (body: string, options: { readonly timestamp?: number; readonly provider?: string; readonly signed?: string } = {}) =>
  call("POST", `/api/v1/webhooks/${options.provider ?? "stripe"}`, {
    raw: body,
    contentType: "application/json; charset=utf-8",
    idempotencyKey: null,
    headers: {
      "stripe-signature": Stripe.webhooks.generateTestHeaderString({
        payload: options.signed ?? body, secret: stripeSecret, timestamp: options.timestamp ?? nowS
      })
    }
  })

const postStandard = (id: string, body: string, options: { readonly timestamp?: number } = {}) => {
  const timestamp = options.timestamp ?? nowS
  return call("POST", "/api/v1/webhooks/acme", {
    raw: body,
    idempotencyKey: null,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": new Webhook(standardSecret).sign(id, new Date(timestamp * 1000), body)
    }
  })
}

layer(Layer.mergeAll(server.layer, IdsSequence("0000f00d")), { timeout: 120_000 })("Commerce_ReceiveProcessorWebhook", (it) => {
  it.effect("a signed Stripe payment success pays the order once; its replay changes nothing", () =>
    Effect.gen(function*() {
      const ids = yield* pendingPayment()
      const body = stripeEvent("evt_paid_1", "payment_intent.succeeded", {
        id: "pi_paid_1", object: "payment_intent", amount: 1000, currency: "usd", metadata: { paymentId: ids.paymentId }
      })
      const reply = yield* postStripe(body)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual({
        provider: "stripe", eventId: "evt_paid_1", eventType: "payment_intent.succeeded", outcome: "APPLIED",
        paymentId: ids.paymentId, duplicate: false, receivedAt: TestEpoch.toISOString()
      })
      const paid = yield* stateOf(ids)
      expect(paid).toMatchObject({ order: "ACTIVE", payment: "CONFIRMED", entitlements: 1 })

      // the processor's retry: the same event, acknowledged with its first receipt, changing nothing
      const replay = yield* postStripe(body)
      expect(replay.status, replay.text).toBe(200)
      expect(replay.body.data).toEqual({ ...reply.body.data, duplicate: true })
      expect(yield* stateOf(ids)).toEqual(paid)
    }))

  it.effect("a changed byte, a stale timestamp or an unknown provider is the one 401, and changes nothing", () =>
    Effect.gen(function*() {
      const ids = yield* pendingPayment()
      const before = yield* stateOf(ids)
      const rows = yield* eventRows
      const body = stripeEvent("evt_tampered", "payment_intent.succeeded", { id: "pi_t", metadata: { paymentId: ids.paymentId } })
      // one byte changed after signing (the amount a forger would raise)
      const tampered = yield* postStripe(body.replace("\"pi_t\"", "\"pi_u\""), { signed: body })
      expectProblem(tampered, 401, "webhook-signature-invalid")
      // the same bytes re-serialised (what parsing before verifying would hand the verifier)
      const compact = yield* postStripe(JSON.stringify(JSON.parse(body)), { signed: body })
      expectProblem(compact, 401, "webhook-signature-invalid")
      const stale = yield* postStripe(body, { timestamp: nowS - 301 })
      expectProblem(stale, 401, "webhook-signature-invalid")
      const unknown = yield* postStripe(body, { provider: "paypal" })
      expectProblem(unknown, 401, "webhook-signature-invalid")
      const unsigned = yield* call("POST", "/api/v1/webhooks/stripe", { raw: body, idempotencyKey: null })
      expectProblem(unsigned, 401, "webhook-signature-invalid")
      // one body whatever failed: nothing tells which providers exist or which check failed
      const shapes = [tampered, compact, stale, unknown, unsigned].map((r) => ({ ...r.body, requestId: null, instance: null }))
      for (const shape of shapes) expect(shape).toEqual(shapes[0])
      expect(yield* stateOf(ids)).toEqual(before)
      expect(yield* eventRows).toBe(rows)
      // the untouched bytes, signed in time, still pay
      const good = yield* postStripe(body)
      expect(good.body.data.outcome, good.text).toBe("APPLIED")
    }))

  it.effect("Standard Webhooks: a failure by our payment id, a success by the processor's reference", () =>
    Effect.gen(function*() {
      const failing = yield* pendingPayment()
      const failed = yield* postStandard("msg_fail_1", JSON.stringify({
        type: "payment.failed", timestamp: TestEpoch.toISOString(), data: { paymentId: failing.paymentId }
      }))
      expect(failed.status, failed.text).toBe(200)
      expect(failed.body.data).toMatchObject({ eventId: "msg_fail_1", outcome: "APPLIED", paymentId: failing.paymentId })
      expect(yield* stateOf(failing)).toMatchObject({ payment: "FAILED", order: "PAYMENT_PENDING", entitlements: 0 })

      const referenced = yield* pendingPayment("PROCESSOR", "acme_pay_77")
      const body = JSON.stringify({ type: "payment.succeeded", timestamp: TestEpoch.toISOString(), data: { reference: "acme_pay_77" } })
      const paid = yield* postStandard("msg_paid_77", body)
      expect(paid.body.data, paid.text).toMatchObject({ outcome: "APPLIED", paymentId: referenced.paymentId, duplicate: false })
      expect(yield* stateOf(referenced)).toMatchObject({ payment: "CONFIRMED", order: "ACTIVE", entitlements: 1 })
      // the same event id again, even re-signed later, is the same event
      const again = yield* postStandard("msg_paid_77", body, { timestamp: nowS + 60 })
      expect(again.body.data).toMatchObject({ outcome: "APPLIED", duplicate: true })
      // a stale Standard Webhooks timestamp
      const stale = yield* postStandard("msg_stale", body, { timestamp: nowS - 301 })
      expectProblem(stale, 401, "webhook-signature-invalid")
    }))

  it.effect("moves only PROCESSOR payments; other types are recorded as IGNORED, unknown payments as UNMATCHED", () =>
    Effect.gen(function*() {
      const x402 = yield* pendingPayment("X402", "nonce-webhook-1")
      const other = yield* postStripe(stripeEvent("evt_x402", "payment_intent.succeeded", { id: "pi_x", metadata: { paymentId: x402.paymentId } }))
      expect(other.body.data, other.text).toMatchObject({ outcome: "UNMATCHED", paymentId: null })
      expect(yield* stateOf(x402)).toMatchObject({ payment: "PENDING" })

      const nobody = yield* postStripe(stripeEvent("evt_nobody", "payment_intent.succeeded", { id: "pi_nobody" }))
      expect(nobody.body.data).toMatchObject({ outcome: "UNMATCHED", paymentId: null })
      const ignored = yield* postStripe(stripeEvent("evt_customer", "customer.created", { id: "cus_1" }))
      expect(ignored.body.data).toMatchObject({ outcome: "IGNORED", eventType: "customer.created" })

      // a confirmed payment's later failure event moves nothing
      const ids = yield* pendingPayment()
      yield* postStripe(stripeEvent("evt_ok_2", "payment_intent.succeeded", { id: "pi_2", metadata: { paymentId: ids.paymentId } }))
      const late = yield* postStripe(stripeEvent("evt_fail_2", "payment_intent.payment_failed", { id: "pi_2", metadata: { paymentId: ids.paymentId } }))
      expect(late.body.data).toMatchObject({ outcome: "IGNORED", paymentId: ids.paymentId })
      expect(yield* stateOf(ids)).toMatchObject({ payment: "CONFIRMED", order: "ACTIVE" })
    }))

  it.effect("a signed body that is not an event is 400, naming the member; a bad provider name is 400", () =>
    Effect.gen(function*() {
      const rows = yield* eventRows
      const noId = yield* postStripe(JSON.stringify({ type: "payment_intent.succeeded", data: { object: {} } }))
      expectProblem(noId, 400, "processor-event-invalid")
      expect(noId.body.errors).toEqual([{ in: "body", pointer: "/id", detail: "is required" }])
      const badName = yield* call("POST", "/api/v1/webhooks/Not_A_Name", { raw: "{}", idempotencyKey: null })
      expectProblem(badName, 400, "invalid-request")
      expect(yield* eventRows).toBe(rows)
    }))
})
