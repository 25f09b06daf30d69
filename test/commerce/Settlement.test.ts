/**
 * The order, payment and entitlement state machine every rail drives (src/commerce/Settlement.ts,
 * spec §2.11, §3): quotes, payments applied once by their natural key, reorgs, late money.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { IdsSequence } from "../../layers/Ids.js"
import {
  confirmPayment,
  failPayment,
  observePayment,
  openPayment,
  placeOrder,
  revertPayment
} from "../../src/commerce/index.js"
import { DemoOffers } from "../../demo/services/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { TestDb, TestEpoch } from "../support/TestServer.js"

/** The demo price of the PUBLISHED "pro" offer (10 USDC) and of the DRAFT "starter" offer. */
const publishedPrice = "0190000d-0000-7000-8000-000000000002"
const draftPrice = "0190000d-0000-7000-8000-000000000001"
const buyer = DemoWorkspaces.outsider.id
const day = 86_400_000

const order = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ state: string; version: number; paidAt: Date | null; expiresAt: Date | null }>`
      SELECT state, version::int AS version, paid_at AS "paidAt", expires_at AS "expiresAt" FROM orders WHERE id = ${id}`
  ).pipe(Effect.map((rows) => rows[0]!))

const payment = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ state: string; transactionHash: string | null }>`
      SELECT state, transaction_hash AS "transactionHash" FROM payments WHERE id = ${id}`
  ).pipe(Effect.map((rows) => rows[0]!))

const setUp = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* TestClock.setTime(TestEpoch.getTime())
  yield* sql`UPDATE service_offers SET entitlement_days = 30, grace_days = 3, run_quota = 5, entitlement_code = 'PRO_RESEARCH'
    WHERE id = ${DemoOffers.published.id}`
})

layer(Layer.mergeAll(TestDb, IdsSequence("0000c0de")))("the commerce settlement", (it) => {
  it.effect("quotes a published price, and activates the entitlement once when the payment is confirmed", () =>
    Effect.gen(function*() {
      yield* setUp
      const placed = yield* placeOrder({ workspaceId: buyer, offerPriceId: publishedPrice, quantity: 2, buyerAccountId: null })
      expect(placed.totalUnits).toBe(20_000_000n)
      expect(placed.offerId).toBe(DemoOffers.published.id)
      expect(placed.paymentDueAt.getTime()).toBe(TestEpoch.getTime() + 30 * 60_000)
      expect(placed.orderNumber).toMatch(/^ORD-2026-\d{6}$/)
      expect(yield* order(placed.id)).toMatchObject({ state: "CREATED", version: 1 })

      const opened = yield* openPayment({
        orderId: placed.id, rail: "X402", reference: "nonce-1", transactionIntentId: null,
        expiresAt: placed.paymentDueAt
      })
      expect(opened).toMatchObject({ state: "PENDING", units: 20_000_000n, rail: "X402" })
      expect(yield* order(placed.id)).toMatchObject({ state: "PAYMENT_PENDING", version: 2 })
      // the same natural key is the same payment
      const again = yield* openPayment({
        orderId: placed.id, rail: "X402", reference: "nonce-1", transactionIntentId: null,
        expiresAt: placed.paymentDueAt
      })
      expect(again.id).toBe(opened.id)
      expect(yield* order(placed.id)).toMatchObject({ state: "PAYMENT_PENDING", version: 2 })

      yield* observePayment(opened.id, { transactionHash: "0xabc" })
      expect(yield* payment(opened.id)).toEqual({ state: "OBSERVED", transactionHash: "0xabc" })
      expect(yield* order(placed.id)).toMatchObject({ state: "PAYMENT_OBSERVED", version: 3 })
      // a reorg takes the transfer out of the chain
      yield* revertPayment(opened.id)
      expect(yield* payment(opened.id)).toEqual({ state: "PENDING", transactionHash: null })
      expect(yield* order(placed.id)).toMatchObject({ state: "PAYMENT_PENDING", version: 4 })

      const confirmed = yield* confirmPayment(opened.id, { transactionHash: "0xdef" }).pipe(Effect.map(Option.getOrThrow))
      expect(confirmed).toMatchObject({ orderId: placed.id, orderState: "ACTIVE", changed: true })
      const after = yield* order(placed.id)
      expect(after).toMatchObject({ state: "ACTIVE", version: 6 })
      expect(after.expiresAt?.getTime()).toBe(TestEpoch.getTime() + 30 * day)
      const sql = yield* SqlClient.SqlClient
      const entitlements = yield* sql<{ id: string; code: string; state: string; runQuota: number; graceUntil: Date }>`
        SELECT id, code, state, run_quota AS "runQuota", grace_until AS "graceUntil" FROM entitlements WHERE order_id = ${placed.id}`
      expect(entitlements).toEqual([{
        id: confirmed.entitlementId, code: "PRO_RESEARCH", state: "ACTIVE", runQuota: 5,
        graceUntil: new Date(TestEpoch.getTime() + 33 * day)
      }])
      // a replayed confirmation changes nothing
      const replay = yield* confirmPayment(opened.id, { transactionHash: "0xdef" }).pipe(Effect.map(Option.getOrThrow))
      expect(replay).toMatchObject({ changed: false, orderState: "ACTIVE", entitlementId: null })
      expect(yield* order(placed.id)).toMatchObject({ version: 6 })
      expect((yield* sql`SELECT 1 FROM entitlements WHERE order_id = ${placed.id}`).length).toBe(1)
      // the reference now belongs to this order
      const other = yield* placeOrder({ workspaceId: buyer, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: null })
      const used = yield* openPayment({
        orderId: other.id, rail: "X402", reference: "nonce-1", transactionIntentId: null, expiresAt: other.paymentDueAt
      }).pipe(Effect.flip)
      expect(used._tag).toBe("PaymentReferenceUsed")
      // a paid order takes no more payments
      const closed = yield* openPayment({
        orderId: placed.id, rail: "ADMIN", reference: null, transactionIntentId: null, expiresAt: placed.paymentDueAt
      }).pipe(Effect.flip)
      expect(closed._tag).toBe("OrderNotPayable")
    }))

  it.effect("refuses a price whose offer is not published", () =>
    Effect.gen(function*() {
      yield* setUp
      const refused = yield* placeOrder({ workspaceId: buyer, offerPriceId: draftPrice, quantity: 1, buyerAccountId: null })
        .pipe(Effect.flip)
      expect(refused._tag).toBe("OfferNotPurchasable")
      const unknown = yield* placeOrder({
        workspaceId: buyer, offerPriceId: "0190ffff-0000-7000-8000-000000000000", quantity: 1, buyerAccountId: null
      }).pipe(Effect.flip)
      expect(unknown._tag).toBe("OfferNotPurchasable")
    }))

  it.effect("keeps money that arrives for a cancelled order for a person to review, and fails a payment without closing the order", () =>
    Effect.gen(function*() {
      yield* setUp
      const sql = yield* SqlClient.SqlClient
      const placed = yield* placeOrder({ workspaceId: buyer, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: null })
      const first = yield* openPayment({
        orderId: placed.id, rail: "ONCHAIN", reference: null, transactionIntentId: null, expiresAt: placed.paymentDueAt
      })
      yield* observePayment(first.id, { transactionHash: "0x01" })
      yield* failPayment(first.id)
      expect(yield* payment(first.id)).toMatchObject({ state: "FAILED" })
      expect(yield* order(placed.id)).toMatchObject({ state: "PAYMENT_PENDING", version: 4 })
      // a failed payment is not confirmed later
      yield* confirmPayment(first.id, { transactionHash: "0x01" })
      expect(yield* payment(first.id)).toMatchObject({ state: "FAILED" })

      const second = yield* openPayment({
        orderId: placed.id, rail: "ONCHAIN", reference: null, transactionIntentId: null, expiresAt: placed.paymentDueAt
      })
      yield* sql`UPDATE orders SET state = 'CANCELLED', version = version + 1 WHERE id = ${placed.id}`
      const late = yield* confirmPayment(second.id, { transactionHash: "0x02" }).pipe(Effect.map(Option.getOrThrow))
      expect(late).toMatchObject({ orderState: "MANUAL_REVIEW", entitlementId: null, changed: true })
      expect(yield* payment(second.id)).toEqual({ state: "MANUAL_REVIEW", transactionHash: "0x02" })
      expect((yield* sql`SELECT 1 FROM entitlements WHERE order_id = ${placed.id}`).length).toBe(0)
    }))
})
