/**
 * SQL of the Commerce area: orders with payments and entitlements, built in the wire
 * shape of `CommerceOrder` (spec §2.11) in one query. A payment being refunded on chain shows
 * its refund's transaction intent as `transactionIntentPublicId` (the transaction the seller signs
 * now; docs/commerce.md), its `transactionHash` stays the payment's.
 */
import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import { CommerceOrder } from "./Schemas.js"

/**
 * The columns of an order in the wire shape of `CommerceOrder` (spec §2.11), with its payments and
 * entitlements, over `orders o JOIN networks n JOIN assets a`: the one order view every commerce read uses.
 */
export const orderViewColumns = `o.id, o.order_number AS "orderNumber", o.state, o.version::float8 AS version,
              o.workspace_id AS "workspacePublicId", o.agent_id AS "agentPublicId",
              o.product_code AS "productCode", o.product_name AS "productName",
              o.network_id AS "networkPublicId", n.key AS network, o.asset_id AS "assetId",
              a.symbol, a.decimals, o.subtotal_units::text AS "subtotalUnits",
              o.discount_units::text AS "discountUnits", o.total_units::text AS "totalUnits",
              o.holder_benefit AS "holderBenefit", o.terms_version AS "termsVersion", o.policy_version AS "policyVersion",
              COALESCE((SELECT json_agg(json_build_object('id', p.id, 'rail', p.rail, 'state', p.state, 'units', p.units::text,
                          'transactionIntentPublicId', COALESCE(p.refund_transaction_intent_id, p.transaction_intent_id), 'transactionHash', p.transaction_hash,
                          'expiresAt', api_ts(p.expires_at)) ORDER BY p.created_at, p.id)
                        FROM payments p WHERE p.order_id = o.id), '[]'::json) AS payments,
              COALESCE((SELECT json_agg(json_build_object('id', e.id, 'code', e.code, 'state', e.state, 'source', e.source,
                          'effectiveFrom', api_ts(e.effective_from), 'effectiveUntil', api_ts(e.effective_until),
                          'policyVersion', e.policy_version) ORDER BY e.effective_from, e.id)
                        FROM entitlements e WHERE e.order_id = o.id), '[]'::json) AS entitlements,
              api_ts(o.paid_at) AS "paidAt", api_ts(o.activated_at) AS "activatedAt", api_ts(o.expires_at) AS "expiresAt",
              api_ts(o.created_at) AS "createdAt", api_ts(o.updated_at) AS "updatedAt"`

export class CommerceRepo extends Effect.Service<CommerceRepo>()("agent-directory/CommerceRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** The wire orders the fragments select (`o` = orders), in `order` (default newest first). */
    const wireOrders = (join: Statement.Fragment, where: Statement.Fragment) =>
      sql`SELECT ${sql.literal(orderViewColumns)}
            FROM orders o
            ${join}
            JOIN networks n ON n.id = o.network_id
            JOIN assets a ON a.id = o.asset_id
            WHERE ${where}
            ORDER BY o.created_at DESC, o.id DESC`
    /** Orders of the workspaces where the account is an ACTIVE member, newest first. */
    const ordersOfMember = SqlSchema.findAll({
      Request: Schema.String,
      Result: CommerceOrder,
      execute: (accountId) =>
        wireOrders(
          sql`JOIN workspace_members m ON m.workspace_id = o.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'`,
          sql`TRUE`
        )
    })
    /** One order by id, whoever may see it (the caller checks visibility). */
    const orderById = SqlSchema.findOne({
      Request: Schema.String,
      Result: CommerceOrder,
      execute: (id) => wireOrders(sql``, sql`o.id = ${id}`)
    })
    return {
      ordersOfMember: (accountId: string) => Effect.orDie(ordersOfMember(accountId)),
      /** The order `id` in its wire shape (none when absent); no visibility check. */
      orderById: (id: string) => Effect.orDie(orderById(id))
    }
  })
}) {}
