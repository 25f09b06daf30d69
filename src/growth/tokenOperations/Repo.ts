/** SQL of the admin token operations view (spec §2.13), rows built in the wire shape. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { TokenOperation } from "./Schemas.js"

/** Most operations one list returns (newest first). */
export const TokenOperationListLimit = 500

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The newest {@link TokenOperationListLimit} operations, by `requestedAt` then id, descending. */
  const list = SqlSchema.findAll({
    Request: Schema.Void,
    Result: TokenOperation,
    execute: () =>
      sql`SELECT o.id, o.kind, o.state, n.id AS "networkId", n.key AS network, a.id AS "assetId", a.symbol, a.decimals,
            o.units::text AS units, o.quote_asset_id AS "quoteAssetId", o.quote_units::text AS "quoteUnits",
            o.source, o.destination, o.transaction_intent_id AS "transactionIntentPublicId",
            o.journal_entry_id AS "journalEntryId", o.evidence_ref AS "evidenceRef", o.policy_version AS "policyVersion",
            o.public_summary AS "publicSummary", o.failure_code AS "failureCode", api_ts(o.requested_at) AS "requestedAt",
            api_ts(o.approved_at) AS "approvedAt", api_ts(o.reconciled_at) AS "reconciledAt", o.version::float8 AS version
          FROM token_operations o JOIN assets a ON a.id = o.asset_id JOIN networks n ON n.id = a.network_id
          ORDER BY o.requested_at DESC, o.id DESC LIMIT ${TokenOperationListLimit}`
  })
  return { list } as const
})

/** SQL of the token operations view. */
export class TokenOperationsRepo extends Effect.Service<TokenOperationsRepo>()("agent-directory/TokenOperationsRepo", {
  effect: make
}) {}
