/**
 * The order, payment and entitlement state machine (spec §2.11, §3; docs/commerce.md), shared by
 * every rail (X402, ONCHAIN, PROCESSOR, ADMIN) and every command that moves an order.
 *
 * Each function is an Effect on `SqlClient` that runs inside the caller's transaction (the
 * request's, with its idempotency record, or an intent outcome's), so a payment's effect commits
 * with the event that caused it or not at all. Every order move is one conditional `UPDATE … SET
 * version = version + 1` (two moves, two increments), and every function is idempotent on its
 * natural key: confirming a confirmed payment, or observing an observed one, changes nothing.
 *
 * Moves made here:
 *
 * | function | payment | order | entitlement |
 * |---|---|---|---|
 * | {@link placeOrder} | – | CREATED | – |
 * | {@link openPayment} | PENDING | CREATED, PAYMENT_PENDING → PAYMENT_PENDING | – |
 * | {@link observePayment} | PENDING → OBSERVED | PAYMENT_PENDING → PAYMENT_OBSERVED | – |
 * | {@link confirmPayment} | CREATED, PENDING, OBSERVED → CONFIRMED | → PAID → ACTIVE | ACTIVE |
 * | {@link confirmPayment} on an order no longer payable | → MANUAL_REVIEW | CANCELLED, EXPIRED → MANUAL_REVIEW | – |
 * | {@link revertPayment} (reorg) | OBSERVED → PENDING | PAYMENT_OBSERVED → PAYMENT_PENDING | – |
 * | {@link failPayment} | CREATED, PENDING, OBSERVED → FAILED | PAYMENT_OBSERVED → PAYMENT_PENDING | – |
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { now } from "../../layers/Clock.js"
import { Ids } from "../../layers/Ids.js"
import { OfferNotPurchasable, OrderNotPayable, PaymentReferenceUsed } from "./Errors.js"

/** A payment rail (spec §2.11 `payments[].rail`). */
export type PaymentRail = "ONCHAIN" | "X402" | "PROCESSOR" | "ADMIN"

/** How long an unpaid order takes payments by default (ms, 30 minutes). */
export const DefaultPaymentWindowMillis = 30 * 60 * 1000

const DayMillis = 24 * 60 * 60 * 1000

/** An order just placed, with what a rail needs to collect its payment. */
export interface PlacedOrder {
  readonly id: string
  readonly orderNumber: string
  readonly workspaceId: string
  /** The seller: the workspace of the offer's service. */
  readonly sellerWorkspaceId: string
  readonly offerId: string
  readonly agentId: string | null
  /** Minor units of the asset: price units × quantity. */
  readonly totalUnits: bigint
  readonly assetId: string
  /** The asset's CAIP-19 id (`eip155:8453/erc20:0x…`), when known. */
  readonly assetCaip19: string | null
  readonly networkId: string
  /** The network's key (a CAIP-2 id for chains). */
  readonly network: string
  /** The offer's EVM payout address (ONCHAIN and X402 pay to it), when set. */
  readonly payoutAddress: string | null
  readonly paymentDueAt: Date
}

/** A payment as the rails see it. */
export interface PaymentRecord {
  readonly id: string
  readonly orderId: string
  readonly rail: PaymentRail
  readonly state: string
  readonly units: bigint
  readonly reference: string | null
  readonly transactionIntentId: string | null
  readonly transactionHash: string | null
}

/** What {@link confirmPayment} did. */
export interface ConfirmedPayment {
  readonly orderId: string
  /** The order's state after the call. */
  readonly orderState: string
  /** The entitlement the payment activated (none when it activated nothing, e.g. on a replay). */
  readonly entitlementId: string | null
  /** True when this call moved the payment (false on a replay of a confirmed payment). */
  readonly changed: boolean
}

interface PaymentRow {
  readonly id: string
  readonly order_id: string
  readonly rail: PaymentRail
  readonly state: string
  readonly units: string
  readonly reference: string | null
  readonly transaction_intent_id: string | null
  readonly transaction_hash: string | null
}

const toPayment = (row: PaymentRow): PaymentRecord => ({
  id: row.id,
  orderId: row.order_id,
  rail: row.rail,
  state: row.state,
  units: BigInt(row.units),
  reference: row.reference,
  transactionIntentId: row.transaction_intent_id,
  transactionHash: row.transaction_hash
})

const paymentColumns = "id, order_id, rail, state, units::text AS units, reference, transaction_intent_id, transaction_hash"

/**
 * Places an order for an offer price (order CREATED, version 1): the quote locks the units
 * (price units × `quantity`), network, asset, terms revision (`termsVersion`) and fulfillment
 * policy version (`policyVersion`) as they are now; unpaid, it takes payments until
 * `paymentDueAt` (now + `paymentWindowMillis`). Fails with `OfferNotPurchasable` when the price
 * does not exist, its offer is not PUBLISHED or has no terms, or the price is not in effect now.
 */
export const placeOrder = (input: {
  readonly workspaceId: string
  readonly offerPriceId: string
  readonly quantity: number
  readonly buyerAccountId: string | null
  readonly paymentWindowMillis?: number
}): Effect.Effect<PlacedOrder, OfferNotPurchasable, SqlClient.SqlClient | Ids> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const [quote] = yield* sql<{
      offerId: string
      state: string
      title: string
      productCode: string
      policyVersion: number
      agentId: string | null
      sellerWorkspaceId: string
      units: string
      assetId: string
      assetCaip19: string | null
      networkId: string
      network: string
      payoutAddress: string | null
      effective: boolean
      termsRevision: number | null
    }>`SELECT o.id AS "offerId", o.state, o.title,
          COALESCE(o.entitlement_code, upper(regexp_replace(o.slug, '[^a-zA-Z0-9]+', '_', 'g'))) AS "productCode",
          o.fulfillment_policy_version AS "policyVersion", s.agent_id AS "agentId", s.workspace_id AS "sellerWorkspaceId",
          p.units::text AS units, p.asset_id AS "assetId", a.caip19 AS "assetCaip19",
          n.id AS "networkId", n.key AS network, o.payout_address AS "payoutAddress",
          (p.effective_from <= ${at} AND (p.effective_until IS NULL OR p.effective_until > ${at})) AS effective,
          (SELECT max(t.revision) FROM service_offer_terms t WHERE t.offer_id = o.id) AS "termsRevision"
        FROM service_offer_prices p
        JOIN service_offers o ON o.id = p.offer_id
        JOIN services s ON s.id = o.service_id
        JOIN assets a ON a.id = p.asset_id
        JOIN networks n ON n.id = COALESCE(p.network_id, a.network_id)
        WHERE p.id = ${input.offerPriceId}`.pipe(Effect.orDie)
    if (quote === undefined) {
      return yield* new OfferNotPurchasable({ detail: "No price with this id exists." })
    }
    if (quote.state !== "PUBLISHED") {
      return yield* new OfferNotPurchasable({ detail: "The price's offer is not published." })
    }
    if (!quote.effective) {
      return yield* new OfferNotPurchasable({ detail: "The price is not in effect now." })
    }
    if (quote.termsRevision === null) {
      return yield* new OfferNotPurchasable({ detail: "The offer has no terms revision." })
    }
    const id = yield* Ids.pipe(Effect.flatMap((ids) => ids.next))
    const totalUnits = BigInt(quote.units) * BigInt(input.quantity)
    const paymentDueAt = new Date(at.getTime() + (input.paymentWindowMillis ?? DefaultPaymentWindowMillis))
    const [numbered] = yield* sql<{ orderNumber: string }>`
      INSERT INTO orders (id, order_number, state, version, workspace_id, agent_id, product_code, product_name,
        network_id, asset_id, subtotal_units, discount_units, total_units, holder_benefit, terms_version, policy_version,
        offer_id, offer_price_id, quantity, buyer_account_id, payment_due_at, created_at, updated_at)
      VALUES (${id}, 'ORD-' || to_char(${at}::timestamptz AT TIME ZONE 'UTC', 'YYYY') || '-' || lpad(nextval('order_numbers')::text, 6, '0'),
        'CREATED', 1, ${input.workspaceId}, ${quote.agentId}, ${quote.productCode}, ${quote.title},
        ${quote.networkId}, ${quote.assetId}, ${totalUnits.toString()}, 0, ${totalUnits.toString()}, NULL,
        ${quote.termsRevision}, ${quote.policyVersion}, ${quote.offerId}, ${input.offerPriceId}, ${input.quantity},
        ${input.buyerAccountId}, ${paymentDueAt}, ${at}, ${at})
      RETURNING order_number AS "orderNumber"`.pipe(Effect.orDie)
    return {
      id,
      orderNumber: numbered!.orderNumber,
      workspaceId: input.workspaceId,
      sellerWorkspaceId: quote.sellerWorkspaceId,
      offerId: quote.offerId,
      agentId: quote.agentId,
      totalUnits,
      assetId: quote.assetId,
      assetCaip19: quote.assetCaip19,
      networkId: quote.networkId,
      network: quote.network,
      payoutAddress: quote.payoutAddress,
      paymentDueAt
    }
  })

/**
 * Opens a payment of an order on a rail (payment PENDING for the order's total; order CREATED →
 * PAYMENT_PENDING, or left PAYMENT_PENDING). `reference` is the rail's natural key, unique per
 * rail: opening again with the reference of a payment of the same order returns that payment
 * unchanged. Fails with `OrderNotPayable` when the order is in no state that takes payments (or
 * does not exist), `PaymentReferenceUsed` when the reference pays another order.
 */
export const openPayment = (input: {
  readonly orderId: string
  readonly rail: PaymentRail
  readonly reference: string | null
  readonly transactionIntentId: string | null
  readonly expiresAt: Date
  /** The payer (CAIP-10 account id), when the rail knows it. */
  readonly payer?: string | null
}): Effect.Effect<PaymentRecord, OrderNotPayable | PaymentReferenceUsed, SqlClient.SqlClient | Ids> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    if (input.reference !== null) {
      const existing = yield* findPaymentByReference(input.rail, input.reference)
      if (Option.isSome(existing)) {
        if (existing.value.orderId === input.orderId) return existing.value
        return yield* new PaymentReferenceUsed({ detail: "The payment reference already pays another order." })
      }
    }
    const [order] = yield* sql<{ total: string }>`
      UPDATE orders SET state = 'PAYMENT_PENDING', updated_at = ${at},
        version = version + CASE WHEN state = 'PAYMENT_PENDING' THEN 0 ELSE 1 END
      WHERE id = ${input.orderId} AND state IN ('CREATED', 'PAYMENT_PENDING')
      RETURNING total_units::text AS total`.pipe(Effect.orDie)
    if (order === undefined) {
      return yield* new OrderNotPayable({ detail: "The order takes no payments in its current state." })
    }
    const id = yield* Ids.pipe(Effect.flatMap((ids) => ids.next))
    const [row] = yield* sql<PaymentRow>`
      INSERT INTO payments (id, order_id, rail, state, units, transaction_intent_id, transaction_hash, expires_at,
        created_at, updated_at, reference, payer)
      VALUES (${id}, ${input.orderId}, ${input.rail}, 'PENDING', ${order.total}, ${input.transactionIntentId}, NULL,
        ${input.expiresAt}, ${at}, ${at}, ${input.reference}, ${input.payer ?? null})
      RETURNING ${sql.literal(paymentColumns)}`.pipe(Effect.orDie)
    return toPayment(row!)
  })

/** Records the transaction intent that carries a payment (the ONCHAIN rail prepares it after opening the payment). */
export const attachTransactionIntent = (paymentId: string, transactionIntentId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE payments SET transaction_intent_id = ${transactionIntentId} WHERE id = ${paymentId}`.pipe(
      Effect.asVoid,
      Effect.orDie
    ))

/** The payment of a rail with this natural key, if any. */
export const findPaymentByReference = (
  rail: PaymentRail,
  reference: string
): Effect.Effect<Option.Option<PaymentRecord>, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<PaymentRow>`SELECT ${sql.literal(paymentColumns)} FROM payments WHERE rail = ${rail} AND reference = ${reference}`.pipe(
      Effect.map((rows) => Option.fromNullable(rows[0]).pipe(Option.map(toPayment))),
      Effect.orDie
    ))

/** One payment by id, if any. */
export const findPayment = (paymentId: string): Effect.Effect<Option.Option<PaymentRecord>, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<PaymentRow>`SELECT ${sql.literal(paymentColumns)} FROM payments WHERE id = ${paymentId}`.pipe(
      Effect.map((rows) => Option.fromNullable(rows[0]).pipe(Option.map(toPayment))),
      Effect.orDie
    ))

/** Locks and reads a payment (none when absent). */
const lockPayment = (paymentId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<PaymentRow>`SELECT ${sql.literal(paymentColumns)} FROM payments WHERE id = ${paymentId} FOR UPDATE`.pipe(
      Effect.map((rows) => rows[0]),
      Effect.orDie
    ))

/**
 * The rail saw the payment but it is not final yet (an included, unconfirmed transfer): payment
 * PENDING → OBSERVED (with its transaction hash), order PAYMENT_PENDING → PAYMENT_OBSERVED. Any
 * other state is left as it is.
 */
export const observePayment = (paymentId: string, evidence: { readonly transactionHash: string | null }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const [moved] = yield* sql<{ orderId: string }>`
      UPDATE payments SET state = 'OBSERVED', transaction_hash = COALESCE(${evidence.transactionHash}, transaction_hash),
        updated_at = ${at}
      WHERE id = ${paymentId} AND state IN ('CREATED', 'PENDING')
      RETURNING order_id AS "orderId"`
    if (moved === undefined) return
    yield* sql`UPDATE orders SET state = 'PAYMENT_OBSERVED', version = version + 1, updated_at = ${at}
      WHERE id = ${moved.orderId} AND state = 'PAYMENT_PENDING'`
  }).pipe(Effect.orDie)

/**
 * The payment is final: payment → CONFIRMED (with its transaction hash and payer when given),
 * the order → PAID (`paidAt`) and, activating the entitlement its offer grants (ACTIVE from now,
 * until now + the offer's `entitlement_days`, grace after that, the offer's run quota), → ACTIVE
 * (`activatedAt`, `expiresAt` = the entitlement's end). Money that arrives for an order that no
 * longer takes it (CANCELLED, EXPIRED, or already paid by another payment) is never dropped: the
 * payment goes to MANUAL_REVIEW, and a CANCELLED or EXPIRED order too. A payment already
 * CONFIRMED (or past it) is left as it is (`changed: false`).
 */
export const confirmPayment = (
  paymentId: string,
  evidence: { readonly transactionHash: string | null; readonly payer?: string | null }
): Effect.Effect<Option.Option<ConfirmedPayment>, never, SqlClient.SqlClient | Ids> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const payment = yield* lockPayment(paymentId)
    if (payment === undefined) return Option.none()
    const [order] = yield* sql<{
      state: string
      offerId: string | null
      productCode: string
      policyVersion: number
      entitlementDays: number | null
      graceDays: number | null
      runQuota: number | null
    }>`SELECT o.state, o.offer_id AS "offerId", o.product_code AS "productCode", o.policy_version AS "policyVersion",
          f.entitlement_days AS "entitlementDays", f.grace_days AS "graceDays", f.run_quota AS "runQuota"
        FROM orders o LEFT JOIN service_offers f ON f.id = o.offer_id
        WHERE o.id = ${payment.order_id} FOR UPDATE OF o`
    if (!["CREATED", "PENDING", "OBSERVED"].includes(payment.state)) {
      return Option.some({ orderId: payment.order_id, orderState: order!.state, entitlementId: null, changed: false })
    }
    const hash = evidence.transactionHash
    const payer = evidence.payer ?? null
    if (!["CREATED", "PAYMENT_PENDING", "PAYMENT_OBSERVED"].includes(order!.state)) {
      yield* sql`UPDATE payments SET state = 'MANUAL_REVIEW', transaction_hash = COALESCE(${hash}, transaction_hash),
          payer = COALESCE(${payer}, payer), updated_at = ${at}
        WHERE id = ${paymentId}`
      const [reviewed] = yield* sql<{ state: string }>`
        UPDATE orders SET state = CASE WHEN state IN ('CANCELLED', 'EXPIRED') THEN 'MANUAL_REVIEW' ELSE state END,
          version = version + CASE WHEN state IN ('CANCELLED', 'EXPIRED') THEN 1 ELSE 0 END, updated_at = ${at}
        WHERE id = ${payment.order_id} RETURNING state`
      return Option.some({ orderId: payment.order_id, orderState: reviewed!.state, entitlementId: null, changed: true })
    }
    yield* sql`UPDATE payments SET state = 'CONFIRMED', transaction_hash = COALESCE(${hash}, transaction_hash),
        payer = COALESCE(${payer}, payer), confirmed_at = ${at}, updated_at = ${at}
      WHERE id = ${paymentId}`
    const entitlementId = yield* Ids.pipe(Effect.flatMap((ids) => ids.next))
    const until = order!.entitlementDays === null ? null : new Date(at.getTime() + order!.entitlementDays * DayMillis)
    const graceUntil = until === null ? null : new Date(until.getTime() + (order!.graceDays ?? 0) * DayMillis)
    yield* sql`INSERT INTO entitlements (id, order_id, code, state, source, effective_from, effective_until, policy_version,
        run_quota, grace_until, updated_at)
      VALUES (${entitlementId}, ${payment.order_id}, ${order!.productCode}, 'ACTIVE', 'ORDER', ${at}, ${until},
        ${order!.policyVersion}, ${order!.runQuota}, ${graceUntil}, ${at})`
    // two moves: → PAID, then → ACTIVE with the entitlement
    yield* sql`UPDATE orders SET state = 'ACTIVE', version = version + 2, paid_at = ${at}, activated_at = ${at},
        expires_at = ${until}, updated_at = ${at}
      WHERE id = ${payment.order_id}`
    return Option.some({ orderId: payment.order_id, orderState: "ACTIVE", entitlementId, changed: true })
  }).pipe(Effect.orDie)

/**
 * A reorganisation took the payment's transaction out of the chain: payment OBSERVED → PENDING
 * (its hash cleared) and the order PAYMENT_OBSERVED → PAYMENT_PENDING when no other payment of
 * it is still observed. A payment already CONFIRMED is past the confirmation depth: reverting it
 * puts it and its order in MANUAL_REVIEW (money may be gone; a person decides).
 */
export const revertPayment = (paymentId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const payment = yield* lockPayment(paymentId)
    if (payment === undefined) return
    if (payment.state === "OBSERVED") {
      yield* sql`UPDATE payments SET state = 'PENDING', transaction_hash = NULL, updated_at = ${at} WHERE id = ${paymentId}`
      yield* sql`UPDATE orders SET state = 'PAYMENT_PENDING', version = version + 1, updated_at = ${at}
        WHERE id = ${payment.order_id} AND state = 'PAYMENT_OBSERVED'
          AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = ${payment.order_id} AND p.state = 'OBSERVED')`
    } else if (payment.state === "CONFIRMED") {
      yield* sql`UPDATE payments SET state = 'MANUAL_REVIEW', updated_at = ${at} WHERE id = ${paymentId}`
      yield* sql`UPDATE orders SET state = 'MANUAL_REVIEW', version = version + 1, updated_at = ${at}
        WHERE id = ${payment.order_id} AND state <> 'MANUAL_REVIEW'`
    }
  }).pipe(Effect.orDie)

/**
 * The rail reports the payment failed (a reverted transfer, a declined card): payment CREATED,
 * PENDING or OBSERVED → FAILED; the order stays open for another payment until it is due
 * (PAYMENT_OBSERVED → PAYMENT_PENDING when no other payment of it is observed).
 */
export const failPayment = (paymentId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const [moved] = yield* sql<{ orderId: string }>`
      UPDATE payments SET state = 'FAILED', updated_at = ${at}
      WHERE id = ${paymentId} AND state IN ('CREATED', 'PENDING', 'OBSERVED')
      RETURNING order_id AS "orderId"`
    if (moved === undefined) return
    yield* sql`UPDATE orders SET state = 'PAYMENT_PENDING', version = version + 1, updated_at = ${at}
      WHERE id = ${moved.orderId} AND state = 'PAYMENT_OBSERVED'
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = ${moved.orderId} AND p.state = 'OBSERVED')`
  }).pipe(Effect.orDie)
