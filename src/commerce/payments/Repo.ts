/**
 * SQL of the payment rails: what a purchase or a payment reads (the offer's payable price and
 * payout address, the buyer's role and wallet, an order's payable terms). The state machine's
 * writes are the commerce area's settlement (`../Settlement.ts`). Storage failures are defects.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { orderViewColumns } from "../Repo.js"
import { CommerceOrder } from "../Schemas.js"

/** A current price of a published offer, with what a rail needs to be paid. */
export interface PayablePrice {
  readonly offerId: string
  readonly offerTitle: string
  /** The seller's workspace. */
  readonly sellerWorkspaceId: string
  readonly payoutAddress: string | null
  readonly priceId: string
  readonly units: string
  /** CAIP-2 id of the price's network, null when it names none (or the network has none). */
  readonly network: string | null
  /** CAIP-19 id of the price's asset, null when the asset has none. */
  readonly assetCaip19: string | null
}

/** An order as a payment needs it: its buyer's role, its amount and where it is paid. */
export interface PayableOrder {
  readonly id: string
  readonly state: string
  readonly workspaceId: string
  /** The caller's role in the order's workspace; null = not an ACTIVE member. */
  readonly role: string | null
  readonly totalUnits: string
  readonly networkId: string
  readonly network: string | null
  readonly assetCaip19: string | null
  readonly payoutAddress: string | null
  readonly offerId: string | null
  readonly priceId: string | null
  readonly quantity: number
}

/** The payment rails' reads, on the caller's transaction. */
export const makePaymentsRepo = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /**
   * The current prices (effective at `at`) of the PUBLISHED offer `offerId`, newest effective first;
   * only `priceId` when given. Empty when the offer is not published or has no such price.
   */
  const currentPrices = (offerId: string, priceId: string | undefined, at: Date) =>
    sql<PayablePrice>`SELECT o.id AS "offerId", o.title AS "offerTitle", s.workspace_id AS "sellerWorkspaceId",
        o.payout_address AS "payoutAddress", p.id AS "priceId", p.units::text AS units,
        n.caip2 AS network, a.caip19 AS "assetCaip19"
      FROM service_offers o
      JOIN services s ON s.id = o.service_id
      JOIN service_offer_prices p ON p.offer_id = o.id
      JOIN assets a ON a.id = p.asset_id
      LEFT JOIN networks n ON n.id = COALESCE(p.network_id, a.network_id)
      WHERE o.id = ${offerId} AND o.state = 'PUBLISHED'
        AND p.effective_from <= ${at} AND (p.effective_until IS NULL OR p.effective_until > ${at})
        ${priceId === undefined ? sql`` : sql`AND p.id = ${priceId}`}
      ORDER BY p.effective_from DESC, p.version DESC, p.id`.pipe(Effect.orDie)

  /** The account's role in the workspace (ACTIVE membership of an ACTIVE workspace), or none. */
  const memberRole = (workspaceId: string, accountId: string) =>
    Effect.map(
      sql<{ role: string }>`SELECT m.role FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.workspace_id = ${workspaceId} AND m.account_id = ${accountId} AND m.state = 'ACTIVE' AND w.state = 'ACTIVE'`,
      (rows) => Option.fromNullable(rows[0]?.role)
    ).pipe(Effect.orDie)

  /** The order `id` with the caller's role in its workspace, its amount and where it is paid; none when unknown. */
  const payableOrder = (id: string, accountId: string) =>
    Effect.map(
      sql<PayableOrder>`SELECT o.id, o.state, o.workspace_id AS "workspaceId", m.role, o.total_units::text AS "totalUnits",
          o.network_id AS "networkId", n.caip2 AS network, a.caip19 AS "assetCaip19", so.payout_address AS "payoutAddress",
          o.offer_id AS "offerId", o.offer_price_id AS "priceId", o.quantity
        FROM orders o
        JOIN networks n ON n.id = o.network_id
        JOIN assets a ON a.id = o.asset_id
        LEFT JOIN service_offers so ON so.id = o.offer_id
        LEFT JOIN workspace_members m ON m.workspace_id = o.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
        WHERE o.id = ${id}`,
      (rows) => Option.fromNullable(rows[0])
    ).pipe(Effect.orDie)

  /**
   * The address of the account's wallet on the network (`address` when given, compared in lower
   * case): the most recently registered one; none when the account has none there.
   */
  const buyerWallet = (accountId: string, networkId: string, address: string | undefined) =>
    Effect.map(
      sql<{ address: string }>`SELECT address FROM wallets
        WHERE owner_account_id = ${accountId} AND network_id = ${networkId}
          ${address === undefined ? sql`` : sql`AND lower(address) = ${address.toLowerCase()}`}
        ORDER BY created_at DESC, id LIMIT 1`,
      (rows) => Option.fromNullable(rows[0]?.address)
    ).pipe(Effect.orDie)

  /** Holds, until the transaction ends, the lock of one payment's natural key (x402 retries wait for each other). */
  const lockReference = (reference: string) =>
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`payment:${reference}`}, 0))`.pipe(Effect.asVoid, Effect.orDie)

  /** Sets a payment's natural key (the ONCHAIN intent's id, the PROCESSOR payment's own id). */
  const setReference = (paymentId: string, reference: string) =>
    sql`UPDATE payments SET reference = ${reference} WHERE id = ${paymentId}`.pipe(Effect.asVoid, Effect.orDie)

  /** One order in the wire shape of `CommerceOrder` (spec §2.11), with its payments and entitlements. */
  const orderView = (id: string) =>
    Effect.flatMap(
      sql`SELECT ${sql.literal(orderViewColumns)}
          FROM orders o
          JOIN networks n ON n.id = o.network_id
          JOIN assets a ON a.id = o.asset_id
          WHERE o.id = ${id}`,
      (rows) => Schema.decodeUnknown(CommerceOrder)(rows[0])
    ).pipe(Effect.orDie)

  return { currentPrices, memberRole, payableOrder, buyerWallet, lockReference, setReference, orderView }
})
