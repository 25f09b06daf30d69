/**
 * `npm run bench:commerce`: commerce on PostgreSQL (`DATABASE_URL`: a scratch database is created,
 * migrated, seeded with the demo data and dropped here), each figure beside a reference that does
 * only the unavoidable part:
 *
 * - **orders paid per second**: `BENCH_ORDERS` (500) orders of the demo's PUBLISHED offer, each one
 *   transaction of `placeOrder` + `openPayment` (PROCESSOR) + `confirmPayment` (src/commerce/Settlement.ts:
 *   quote, order numbers, conditional moves, the entitlement) — reference: one transaction of plain
 *   INSERTs of the same rows (the order, its payment, its entitlement).
 * - **processor events applied per second**: the same number of signed Stripe `payment_intent.succeeded`
 *   events, each verified on its bytes and applied once (src/commerce/webhooks/ProcessorWebhooks.ts:
 *   signature, the event's row, the confirmation) in one transaction — reference: the signature check
 *   alone (`stripe`'s `constructEvent`). In process, not over HTTP (the HTTP stack's own cost is
 *   `npm run bench:http`'s).
 *
 * Prints a small table.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import Stripe from "stripe"
import { AuthLive } from "../../layers/Auth.js"
import { DbServer } from "../../layers/Db.js"
import { IdsLive } from "../../layers/Ids.js"
import { migrate } from "../../src/db/migrate.js"
import { seedDemoData } from "../../demo/seed.js"
import { DemoOffers } from "../../demo/services/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { confirmPayment, openPayment, placeOrder } from "../../src/commerce/index.js"
import { ProcessorWebhooks } from "../../src/commerce/webhooks/ProcessorWebhooks.js"
import { testConfigLayer } from "../support/config.js"
import { withScratchDatabase } from "./scratch.js"

const serverUrl = process.env["DATABASE_URL"] ?? ""
const count = Number(process.env["BENCH_ORDERS"] ?? 500)
/** The demo price of the PUBLISHED "pro" offer. */
const publishedPrice = "0190000d-0000-7000-8000-000000000002"
const secret = "whsec_bench_processor_webhooks_0123456789"

const perSecond = (n: number, ms: number) => Math.round((n * 1000) / ms)

const run = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const buyer = DemoWorkspaces.outsider.id

  // orders paid, beside plain INSERTs of the same rows
  const o0 = performance.now()
  for (let i = 0; i < count; i++) {
    yield* sql.withTransaction(Effect.gen(function*() {
      const order = yield* placeOrder({ workspaceId: buyer, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: null })
      const payment = yield* openPayment({
        orderId: order.id, rail: "PROCESSOR", reference: `bench-${i}`, transactionIntentId: null, expiresAt: order.paymentDueAt
      })
      yield* confirmPayment(payment.id, { transactionHash: null })
    }))
  }
  const ordersMs = performance.now() - o0
  const [template] = yield* sql<Record<string, unknown>>`SELECT network_id, asset_id FROM orders WHERE workspace_id = ${buyer} LIMIT 1`
  const r0 = performance.now()
  for (let i = 0; i < count; i++) {
    const orderId = randomUUID()
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`INSERT INTO orders (id, order_number, state, version, workspace_id, product_code, product_name, network_id,
          asset_id, subtotal_units, discount_units, total_units, terms_version, policy_version, created_at, updated_at)
        VALUES (${orderId}, ${`REF-${orderId}`}, 'ACTIVE', 3, ${buyer}, 'PRO', 'Pro', ${template!["network_id"] as string},
          ${template!["asset_id"] as string}, 10000000, 0, 10000000, 1, 1, now(), now())`
      yield* sql`INSERT INTO payments (id, order_id, rail, state, units, expires_at, created_at)
        VALUES (${randomUUID()}, ${orderId}, 'PROCESSOR', 'CONFIRMED', 10000000, now(), now())`
      yield* sql`INSERT INTO entitlements (id, order_id, code, state, source, effective_from, policy_version)
        VALUES (${randomUUID()}, ${orderId}, 'PRO', 'ACTIVE', 'ORDER', now(), 1)`
    }))
  }
  const referenceMs = performance.now() - r0

  // processor events applied, beside the signature check alone
  const webhooks = yield* ProcessorWebhooks
  const events: Array<{ body: string; header: string }> = []
  for (let i = 0; i < count; i++) {
    const paymentId = yield* sql.withTransaction(Effect.gen(function*() {
      const order = yield* placeOrder({ workspaceId: buyer, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: null })
      return (yield* openPayment({
        orderId: order.id, rail: "PROCESSOR", reference: `bench-event-${i}`, transactionIntentId: null, expiresAt: order.paymentDueAt
      })).id
    }))
    const body = JSON.stringify({ id: `evt_bench_${i}`, object: "event", type: "payment_intent.succeeded",
      data: { object: { id: `pi_bench_${i}`, metadata: { paymentId } } } }, null, 2)
    events.push({ body, header: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) })
  }
  const w0 = performance.now()
  for (const event of events) {
    const receipt = yield* sql.withTransaction(webhooks.receive({ provider: "stripe", headers: { "stripe-signature": event.header }, body: event.body }))
    if (receipt.outcome !== "APPLIED") return yield* Effect.dieMessage(`event not applied: ${receipt.outcome}`)
  }
  const webhookMs = performance.now() - w0
  const v0 = performance.now()
  for (const event of events) Stripe.webhooks.constructEvent(event.body, event.header, secret, 300)
  const verifyMs = performance.now() - v0
  return [
    { figure: "orders paid /s", measured: perSecond(count, ordersMs), reference: perSecond(count, referenceMs), ratio: (referenceMs / ordersMs).toFixed(2) },
    { figure: "processor events applied /s", measured: perSecond(count, webhookMs), reference: perSecond(count, verifyMs), ratio: (verifyMs / webhookMs).toFixed(2) }
  ]
})

const main = () =>
  withScratchDatabase("commerce", serverUrl, async (url) => {
    const config = testConfigLayer({
      processorWebhooks: { providers: new Map([["stripe", { scheme: "stripe", secret: Redacted.make(secret) }]]) }
    })
    const base = Layer.mergeAll(DbServer(Redacted.make(url), migrate), IdsLive).pipe(Layer.provideMerge(config))
    const layer = Layer.mergeAll(ProcessorWebhooks.Default, AuthLive).pipe(Layer.provideMerge(base))
    const rows = await Effect.runPromise(
      Effect.zipRight(seedDemoData, run).pipe(Effect.provide(layer), Effect.scoped, Logger.withMinimumLogLevel(LogLevel.Error), Effect.orDie) as Effect.Effect<
        ReadonlyArray<Record<string, unknown>>
      >
    )
    console.log(`\nbench:commerce on PostgreSQL, ${count} orders and events (offer ${DemoOffers.published.id})`)
    console.table(rows)
  })

void main()
