/**
 * Webhook subscriptions and their Standard Webhooks deliveries (docs/webhooks.md): a receiver
 * in the test process verifies every delivery with the `standardwebhooks` library; a receiver
 * that was down gets what it missed; rotation signs with both secrets; a subscription failing
 * for three days is disabled.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"
import { IdsLive } from "../../layers/Ids.js"
import { confirmPayment, openPayment, placeOrder } from "../../src/commerce/index.js"
import { RetryDelaysMillis } from "../../src/workspaces/webhooks/Delivery.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { DemoOffers } from "../../demo/services/seed.js"
import { testConfig } from "../support/config.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { waitFor } from "../support/waitFor.js"

/** A webhook receiver: records what it accepts; answers 503 while `up` is false. */
const receiver = () => {
  const received: Array<{ readonly headers: IncomingHttpHeaders; readonly body: string }> = []
  const state = { up: true, attempts: 0 }
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      state.attempts++
      if (!state.up) {
        res.writeHead(503).end()
        return
      }
      received.push({ headers: req.headers, body })
      res.writeHead(204).end()
    })
  })
  return { server, received, state }
}

const hook = receiver()
await new Promise<void>((resolve) => hook.server.listen(0, "127.0.0.1", resolve))
const hookUrl = `http://127.0.0.1:${(hook.server.address() as AddressInfo).port}/hooks/orders`

const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } })
const acme = DemoWorkspaces.acme.id
const base = `/api/v1/workspaces/${acme}/webhooks`
const publishedPrice = "0190000d-0000-7000-8000-000000000002"

/** Places and pays an order of acme's for the demo's published offer (the events of its moves go out). */
const buyOnce = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.gen(function*() {
    const placed = yield* placeOrder({ workspaceId: acme, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: null })
    const payment = yield* openPayment({
      orderId: placed.id, rail: "ADMIN", reference: null, transactionIntentId: null, expiresAt: placed.paymentDueAt
    })
    yield* confirmPayment(payment.id, { transactionHash: null })
    return placed.id
  }))
}).pipe(Effect.provide(IdsLive))

/** Places an order only (one `order.created` event). */
const placeOnce = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    placeOrder({ workspaceId: acme, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: null })
  ).pipe(Effect.map((o) => o.id))
}).pipe(Effect.provide(IdsLive))

/**
 * The event of a delivery whose `webhook-signature` holds the signature the `standardwebhooks`
 * library makes with `secret` for its id, timestamp and exact body (the library's `verify` would
 * also compare the timestamp with the wall clock, which these tests' manual clock is not); throws otherwise.
 */
const verified = (secret: string, delivery: { readonly headers: IncomingHttpHeaders; readonly body: string }) => {
  const id = String(delivery.headers["webhook-id"])
  const timestamp = new Date(Number(delivery.headers["webhook-timestamp"]) * 1000)
  const expected = new Webhook(secret).sign(id, timestamp, delivery.body)
  if (!String(delivery.headers["webhook-signature"]).split(" ").includes(expected)) throw new Error("signature mismatch")
  return JSON.parse(delivery.body) as { type: string; data: Record<string, unknown> }
}

layer(Layer.mergeAll(server.layer), { timeout: 180_000 })("webhook subscriptions", (it) => {
  it.effect("delivers each event of a subscribed kind once, signed, and again after the receiver was down", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE service_offers SET entitlement_days = 30 WHERE id = ${DemoOffers.published.id}`
      const owner = yield* signIn("owner")
      // validation at the edge: the field and the rule
      const badKind = yield* call("POST", base, { session: owner, body: { url: hookUrl, eventKinds: ["orders.*"] } })
      expect(badKind.status).toBe(400)
      expect(JSON.stringify(badKind.body.errors)).toContain("/eventKinds/0")
      const plain = yield* call("POST", base, { session: owner, body: { url: "http://hooks.example.com/x", eventKinds: ["order.*"] } })
      expectProblem(plain, 400, "outbound-target-refused")
      expect(plain.body.errors[0].pointer).toBe("/url")
      const internal = yield* call("POST", base, { session: owner, body: { url: "https://10.1.2.3/x", eventKinds: ["order.*"] } })
      expectProblem(internal, 400, "outbound-target-refused")
      // an EDITOR may not subscribe
      const member = yield* signIn("member")
      expectProblem(yield* call("POST", base, { session: member, body: { url: hookUrl, eventKinds: ["order.*"] } }), 403, "role-required")

      const created = yield* call("POST", base, {
        session: owner,
        body: { url: hookUrl, eventKinds: ["order.*", "entitlement.active"], description: "orders to the ERP" }
      })
      expect(created.status, created.text).toBe(201)
      const subscription = created.body.data
      expect(subscription).toMatchObject({ url: hookUrl, eventKinds: ["order.*", "entitlement.active"], state: "ACTIVE", version: 1 })
      expect(subscription.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      const listed = yield* call("GET", base, { session: owner })
      expect(listed.body.data.map((s: { id: string }) => s.id)).toContain(subscription.id)
      expect(JSON.stringify(listed.body)).not.toContain(subscription.secret)

      const orderId = yield* buyOnce
      yield* waitFor("the five events of the purchase", Effect.sync(() => hook.received.length >= 5 ? true : undefined), 20_000)
      const events = hook.received.map((d) => verified(subscription.secret, d))
      // signed at the service's clock
      expect(Number(hook.received[0]!.headers["webhook-timestamp"])).toBe(Math.floor(server.clock.unsafeCurrentTimeMillis() / 1000))
      expect(events.map((e) => e.type).sort()).toEqual(
        ["entitlement.active", "order.active", "order.created", "order.paid", "order.payment_pending"]
      )
      expect(events.every((e) => e.data.orderId === orderId)).toBe(true)
      // one tampered byte does not verify
      const first = hook.received[0]!
      expect(() => verified(subscription.secret, { ...first, body: first.body.replace("order", "ordeR") })).toThrow()

      // the receiver is down: the delivery waits, then arrives when it is back
      hook.state.up = false
      const attemptsBefore = hook.state.attempts
      const missed = yield* placeOnce
      yield* waitFor("a failed attempt", Effect.sync(() => hook.state.attempts > attemptsBefore ? true : undefined), 20_000)
      const pending = yield* call("GET", `${base}/${subscription.id}/deliveries?state=PENDING`, { session: owner })
      expect(pending.body.data).toHaveLength(1)
      expect(pending.body.data[0]).toMatchObject({ eventKind: "order.created", attempts: 1, lastStatus: 503, lastError: "http-status" })
      hook.state.up = true
      server.clock.advance(RetryDelaysMillis[0]!)
      yield* waitFor("the missed delivery", Effect.sync(() =>
        hook.received.some((d) => verified(subscription.secret, d).data.orderId === missed) ? true : undefined), 20_000)
      const ids = hook.received.map((d) => d.headers["webhook-id"])
      expect(new Set(ids).size).toBe(ids.length)
      const delivered = yield* call("GET", `${base}/${subscription.id}/deliveries?state=DELIVERED`, { session: owner })
      expect(delivered.body.data).toHaveLength(6)

      // a rotation signs with both secrets for a day
      const rotated = yield* call("POST", `${base}/${subscription.id}/rotate-secret`, {
        session: owner, body: { expectedVersion: 1 }
      })
      expect(rotated.status, rotated.text).toBe(200)
      expect(rotated.body.data.version).toBe(2)
      expect(rotated.body.data.secret).not.toBe(subscription.secret)
      expect(rotated.body.data.previousSecretValidUntil).not.toBeNull()
      const count = hook.received.length
      yield* placeOnce
      yield* waitFor("a delivery after the rotation", Effect.sync(() => hook.received.length > count ? true : undefined), 20_000)
      const last = hook.received[hook.received.length - 1]!
      expect(String(last.headers["webhook-signature"]).split(" ")).toHaveLength(2)
      expect(verified(rotated.body.data.secret, last).type).toBe("order.created")
      expect(verified(subscription.secret, last).type).toBe("order.created")

      // deleted: no more deliveries
      expectProblem(yield* call("DELETE", `${base}/${subscription.id}`, { session: owner, body: { expectedVersion: 1 } }), 409, "version-conflict")
      const deleted = yield* call("DELETE", `${base}/${subscription.id}`, { session: owner, body: { expectedVersion: 2 } })
      expect(deleted.status, deleted.text).toBe(200)
      yield* placeOnce
      const [after] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ${subscription.id}`
      expect(after!.n).toBe(7)
      expectProblem(yield* call("GET", `${base}/${subscription.id}/deliveries`, { session: owner }), 404, "webhook-subscription-not-found")
    }))

  it.effect("disables a subscription whose deliveries fail for three days", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signIn("owner")
      const created = yield* call("POST", base, { session: owner, body: { url: hookUrl, eventKinds: ["order.created"] } })
      expect(created.status, created.text).toBe(201)
      const id = created.body.data.id
      hook.state.up = false
      yield* placeOnce
      const attempts = () =>
        sql<{ attempts: number; state: string }>`SELECT attempts, state FROM webhook_deliveries WHERE subscription_id = ${id}`
          .pipe(Effect.map((rows) => rows[0]))
      yield* waitFor("the first attempt", Effect.map(attempts(), (d) => d?.attempts === 1 ? true : undefined), 20_000)
      for (const [i, delay] of RetryDelaysMillis.entries()) {
        server.clock.advance(delay)
        yield* waitFor(`attempt ${i + 2}`, Effect.map(attempts(), (d) => d !== undefined && d.attempts >= i + 2 ? true : undefined), 20_000)
      }
      expect(yield* attempts()).toEqual({ attempts: RetryDelaysMillis.length + 1, state: "FAILED" })
      // three days on: a new session
      const later = yield* signIn("owner")
      const listed = yield* call("GET", base, { session: later })
      expect(listed.body.data.find((s: { id: string }) => s.id === id)).toMatchObject({ state: "DISABLED", disabledReason: "failing", version: 2 })
      hook.state.up = true
    }))
})
