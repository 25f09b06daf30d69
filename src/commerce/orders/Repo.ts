/**
 * SQL of orders beyond their settlement (`../Settlement.ts`): who may see and act on an order,
 * the moves of cancellation, expiry, refund and the entitlement clock, and a workspace's
 * entitlements. Every order move is one conditional UPDATE with `version = version + 1`.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { WorkspaceEntitlement } from "./Schemas.js"

/**
 * An order as one account sees it: its state and version, the buying workspace and the account's
 * role there (null: not an ACTIVE member), the selling workspace (null: an order of no offer) and
 * the account's role there.
 */
export const OrderAccess = Schema.Struct({
  id: Schema.String,
  state: Schema.String,
  version: Schema.Number,
  workspaceId: Schema.String,
  buyerRole: Schema.NullOr(Schema.String),
  sellerWorkspaceId: Schema.NullOr(Schema.String),
  sellerRole: Schema.NullOr(Schema.String)
})
export type OrderAccess = typeof OrderAccess.Type

/** A payment of an order, as refunds and the admin rail need it. */
export const PaymentRow = Schema.Struct({
  id: Schema.String,
  orderId: Schema.String,
  rail: Schema.String,
  state: Schema.String,
  units: Schema.String,
  payer: Schema.NullOr(Schema.String)
})
export type PaymentRow = typeof PaymentRow.Type

/** What an on-chain refund sends: the order's network (CAIP-2) and token, and the seller's payout address. */
export const RefundRoute = Schema.Struct({
  caip2: Schema.NullOr(Schema.String),
  assetLocator: Schema.NullOr(Schema.String),
  payoutAddress: Schema.NullOr(Schema.String),
  sellerWorkspaceId: Schema.NullOr(Schema.String)
})
export type RefundRoute = typeof RefundRoute.Type

/** Keyset position of an entitlement in Commerce_ListEntitlements: `effective_from` (text, microseconds) and the id; newest first. */
export const EntitlementPosition = Schema.Tuple(Schema.String, Schema.String)

const EntitlementRow = Schema.Struct({
  entitlement: WorkspaceEntitlement,
  position: EntitlementPosition
})

/** Order states an unpaid order is in (cancellable, and expiring at its payment deadline). */
export const UnpaidStates = ["CREATED", "PAYMENT_PENDING"] as const
/** Payment states still open (expired or failed when their order closes unpaid). */
export const OpenPaymentStates = ["CREATED", "PENDING"] as const
/** Order states a refund applies to. */
export const RefundableStates = ["PAID", "FULFILLMENT_PENDING", "ACTIVE"] as const

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const access = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, accountId: Schema.String }),
    Result: OrderAccess,
    execute: ({ accountId, id }) =>
      sql`SELECT o.id, o.state, o.version::float8 AS version, o.workspace_id AS "workspaceId",
            b.role AS "buyerRole", s.workspace_id AS "sellerWorkspaceId", sm.role AS "sellerRole"
          FROM orders o
          LEFT JOIN workspace_members b ON b.workspace_id = o.workspace_id AND b.account_id = ${accountId} AND b.state = 'ACTIVE'
          LEFT JOIN service_offers so ON so.id = o.offer_id
          LEFT JOIN services s ON s.id = so.service_id
          LEFT JOIN workspace_members sm ON sm.workspace_id = s.workspace_id AND sm.account_id = ${accountId} AND sm.state = 'ACTIVE'
          WHERE o.id = ${id}`
  })

  const memberships = SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ workspaceId: Schema.String, role: Schema.String }),
    execute: (accountId) =>
      sql`SELECT m.workspace_id AS "workspaceId", m.role FROM workspace_members m
          JOIN workspaces w ON w.id = m.workspace_id AND w.state = 'ACTIVE'
          WHERE m.account_id = ${accountId} AND m.state = 'ACTIVE' ORDER BY m.workspace_id`
  })

  const payments = SqlSchema.findAll({
    Request: Schema.String,
    Result: PaymentRow,
    execute: (orderId) =>
      sql`SELECT id, order_id AS "orderId", rail, state, units::text AS units, payer
          FROM payments WHERE order_id = ${orderId} ORDER BY created_at, id`
  })

  const paymentById = SqlSchema.findOne({
    Request: Schema.String,
    Result: PaymentRow,
    execute: (id) =>
      sql`SELECT id, order_id AS "orderId", rail, state, units::text AS units, payer FROM payments WHERE id = ${id} FOR UPDATE`
  })

  const refundRoute = SqlSchema.findOne({
    Request: Schema.String,
    Result: RefundRoute,
    execute: (orderId) =>
      sql`SELECT COALESCE(n.caip2, CASE WHEN n.key LIKE 'eip155:%' THEN n.key END) AS caip2, a.caip19 AS "assetLocator", so.payout_address AS "payoutAddress", s.workspace_id AS "sellerWorkspaceId"
          FROM orders o
          JOIN networks n ON n.id = o.network_id
          JOIN assets a ON a.id = o.asset_id
          LEFT JOIN service_offers so ON so.id = o.offer_id
          LEFT JOIN services s ON s.id = so.service_id
          WHERE o.id = ${orderId}`
  })

  const workspaceOwner = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ accountId: Schema.String }),
    execute: (workspaceId) =>
      sql`SELECT account_id AS "accountId" FROM workspace_members
          WHERE workspace_id = ${workspaceId} AND is_workspace_owner AND state = 'ACTIVE'`
  })

  const entitlements = SqlSchema.findAll({
    Request: Schema.Struct({
      workspaceId: Schema.String,
      state: Schema.NullOr(Schema.String),
      after: Schema.NullOr(EntitlementPosition),
      take: Schema.Number
    }),
    Result: EntitlementRow,
    execute: ({ after, state, take, workspaceId }) =>
      sql`SELECT json_build_object('id', e.id, 'code', e.code, 'state', e.state, 'source', e.source,
              'effectiveFrom', api_ts(e.effective_from), 'effectiveUntil', api_ts(e.effective_until),
              'policyVersion', e.policy_version, 'orderId', o.id, 'offerId', o.offer_id, 'agentPublicId', o.agent_id,
              'graceUntil', api_ts(e.grace_until), 'runsUsed', e.runs_used, 'runQuota', e.run_quota) AS entitlement,
            json_build_array(to_char(e.effective_from AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), e.id::text) AS position
          FROM entitlements e JOIN orders o ON o.id = e.order_id
          WHERE o.workspace_id = ${workspaceId}
            ${state === null ? sql`` : sql`AND e.state = ${state}`}
            ${
        after === null ? sql`` : sql`AND (to_char(e.effective_from AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), e.id::text) < (${
          after[0]
        }, ${after[1]})`
      }
          ORDER BY e.effective_from DESC, e.id::text DESC
          LIMIT ${take}`
  })

  /** Moves order `id` from one of `from` to `to` in one conditional statement (version + 1); whether it moved. */
  const moveOrder = (id: string, from: ReadonlyArray<string>, to: string, at: Date, expectedVersion?: number) =>
    Effect.map(
      sql`UPDATE orders SET state = ${to}, version = version + 1, updated_at = ${at}
          WHERE id = ${id} AND state IN ${sql.in(from)}
            ${expectedVersion === undefined ? sql`` : sql`AND version = ${expectedVersion}`}
          RETURNING id`,
      (rows) => rows.length === 1
    )

  /** Moves the order's payments in `from` to `to`; the ids moved. */
  const movePayments = (orderId: string, from: ReadonlyArray<string>, to: string, at: Date) =>
    Effect.map(
      sql<{ id: string }>`UPDATE payments SET state = ${to}, updated_at = ${at}
          WHERE order_id = ${orderId} AND state IN ${sql.in(from)} RETURNING id`,
      (rows) => rows.map((r) => r.id)
    )

  /** Moves payment `id` from one of `from` to `to`; whether it moved. */
  const movePayment = (id: string, from: ReadonlyArray<string>, to: string, at: Date) =>
    Effect.map(
      sql`UPDATE payments SET state = ${to}, updated_at = ${at} WHERE id = ${id} AND state IN ${sql.in(from)} RETURNING id`,
      (rows) => rows.length === 1
    )

  /** Records the refund's transaction intent on the payment. */
  const setRefundIntent = (paymentId: string, intentId: string) =>
    sql`UPDATE payments SET refund_transaction_intent_id = ${intentId} WHERE id = ${paymentId}`

  /** Revokes the order's entitlements that are not over yet; how many. */
  const revokeEntitlements = (orderId: string, at: Date) =>
    Effect.map(
      sql`UPDATE entitlements SET state = 'REVOKED', updated_at = ${at}
          WHERE order_id = ${orderId} AND state IN ('ACTIVE', 'GRACE') RETURNING id`,
      (rows) => rows.length
    )

  /**
   * The entitlement clock and unpaid orders' deadline at `at`, one statement per move:
   * unpaid orders past `payment_due_at` → EXPIRED (their open payments → EXPIRED); ACTIVE
   * entitlements past `effective_until` → GRACE; GRACE ones past `grace_until` (or with none) →
   * EXPIRED; ACTIVE orders whose every entitlement is EXPIRED → COMPLETED. Returns the ids moved.
   */
  const tick = (at: Date) =>
    Effect.gen(function*() {
      const expiredOrders = yield* sql<{ id: string }>`UPDATE orders SET state = 'EXPIRED', version = version + 1, updated_at = ${at}
          WHERE state IN ${sql.in(UnpaidStates)} AND payment_due_at IS NOT NULL AND payment_due_at <= ${at} RETURNING id`
      const ids = expiredOrders.map((r) => r.id)
      if (ids.length > 0) {
        yield* sql`UPDATE payments SET state = 'EXPIRED', updated_at = ${at}
            WHERE order_id IN ${sql.in(ids)} AND state IN ${sql.in(OpenPaymentStates)}`
      }
      const grace = yield* sql<{ id: string }>`UPDATE entitlements SET state = 'GRACE', updated_at = ${at},
            grace_until = COALESCE(grace_until, effective_until)
          WHERE state = 'ACTIVE' AND effective_until IS NOT NULL AND effective_until <= ${at} RETURNING id`
      const expired = yield* sql<{ id: string }>`UPDATE entitlements SET state = 'EXPIRED', updated_at = ${at}
          WHERE state = 'GRACE' AND (grace_until IS NULL OR grace_until <= ${at}) RETURNING id`
      const completed = yield* sql<{ id: string }>`UPDATE orders o SET state = 'COMPLETED', version = o.version + 1, updated_at = ${at}
          WHERE o.state = 'ACTIVE'
            AND EXISTS (SELECT 1 FROM entitlements e WHERE e.order_id = o.id)
            AND NOT EXISTS (SELECT 1 FROM entitlements e WHERE e.order_id = o.id AND e.state <> 'EXPIRED')
          RETURNING o.id`
      return {
        expiredOrders: ids,
        graceEntitlements: grace.map((r) => r.id),
        expiredEntitlements: expired.map((r) => r.id),
        completedOrders: completed.map((r) => r.id)
      }
    })

  return {
    /** The order as `accountId` sees it; none when it does not exist. */
    access: (id: string, accountId: string) => access({ id, accountId }),
    /** The account's ACTIVE memberships of ACTIVE workspaces with its role, by workspace id. */
    memberships,
    /** The order's payments, oldest first. */
    payments,
    /** One payment, locked for the transaction; none when absent. */
    paymentById,
    /** Where an on-chain refund of the order goes from and in which token. */
    refundRoute,
    /** The ACTIVE owner of a workspace, if any. */
    workspaceOwner,
    /** One keyset page of a workspace's entitlements (`take` rows after `after`), newest first. */
    entitlements,
    moveOrder,
    movePayments,
    movePayment,
    setRefundIntent,
    revokeEntitlements,
    tick
  }
})

/** The orders' SQL. Requires `SqlClient`. */
export class OrdersRepo extends Effect.Service<OrdersRepo>()("agent-directory/OrdersRepo", { effect: make }) {}

/** The orders' SQL, made where no layer provides it (workflows, intent outcomes). Requires `SqlClient`. */
export const makeOrdersRepo = make
