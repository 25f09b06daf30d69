/** SQL of token operations (spec §2.13): the admin view, the operations' moves and their journal entries. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { TokenOperation } from "./Schemas.js"

/** Most operations one list returns (newest first). */
export const TokenOperationListLimit = 500

/** An operation's row as the rules need it (beside its wire shape). */
export interface TokenOperationRow {
  readonly id: string
  readonly kind: string
  readonly state: string
  readonly network: string | null
  readonly assetId: string
  readonly units: string
  readonly source: string | null
  readonly destination: string | null
  readonly publicSummary: string
  readonly requestedBy: string | null
  readonly version: number
}

/** What a new operation holds. */
export interface NewTokenOperation {
  readonly id: string
  readonly kind: string
  readonly state: "PLANNED" | "APPROVAL_REQUIRED"
  readonly assetId: string
  readonly units: bigint
  readonly source: string | null
  readonly destination: string | null
  readonly evidenceRef: string | null
  readonly publicSummary: string
  readonly requestedBy: string
  readonly at: Date
}

/** One line of a journal entry: `side` of `account` by `units`. */
export interface JournalLine {
  readonly account: string
  readonly side: "DEBIT" | "CREDIT"
  readonly units: bigint
}

/** Builds the SQL of token operations on the current `SqlClient` (the outcome handler builds it per call). */
export const makeTokenOperationsRepo = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const select = sql`SELECT o.id, o.kind, o.state, n.id AS "networkId", n.key AS network, a.id AS "assetId", a.symbol, a.decimals,
            o.units::text AS units, o.quote_asset_id AS "quoteAssetId", o.quote_units::text AS "quoteUnits",
            o.source, o.destination, o.transaction_intent_id AS "transactionIntentPublicId",
            o.journal_entry_id AS "journalEntryId", o.evidence_ref AS "evidenceRef", o.policy_version AS "policyVersion",
            o.public_summary AS "publicSummary", o.failure_code AS "failureCode", api_ts(o.requested_at) AS "requestedAt",
            api_ts(o.approved_at) AS "approvedAt", api_ts(o.reconciled_at) AS "reconciledAt", o.version::float8 AS version
          FROM token_operations o JOIN assets a ON a.id = o.asset_id JOIN networks n ON n.id = a.network_id`

  /** The newest {@link TokenOperationListLimit} operations, by `requestedAt` then id, descending. */
  const list = SqlSchema.findAll({
    Request: Schema.Void,
    Result: TokenOperation,
    execute: () => sql`${select} ORDER BY o.requested_at DESC, o.id DESC LIMIT ${TokenOperationListLimit}`
  })

  /** One operation in its wire shape, or none. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: TokenOperation,
    execute: (id) => sql`${select} WHERE o.id = ${id}`
  })

  /** One operation's row for the rules (locked with `forUpdate`), or none. */
  const findRow = (id: string, forUpdate = false) =>
    Effect.map(
      sql<TokenOperationRow>`SELECT o.id, o.kind, o.state, n.caip2 AS network, o.asset_id AS "assetId", o.units::text AS units,
          o.source, o.destination, o.public_summary AS "publicSummary", o.requested_by_account_id AS "requestedBy",
          o.version::float8 AS version
        FROM token_operations o JOIN assets a ON a.id = o.asset_id JOIN networks n ON n.id = a.network_id
        WHERE o.id = ${id} ${forUpdate ? sql`FOR UPDATE OF o` : sql``}`,
      (rows) => Option.fromNullable(rows[0])
    )

  /** Records a new operation at version 1. */
  const insert = (o: NewTokenOperation) =>
    sql`INSERT INTO token_operations ${
      sql.insert({
        id: o.id,
        kind: o.kind,
        state: o.state,
        asset_id: o.assetId,
        units: o.units.toString(),
        source: o.source,
        destination: o.destination,
        evidence_ref: o.evidenceRef,
        policy_version: 1,
        public_summary: o.publicSummary,
        requested_at: o.at,
        updated_at: o.at,
        requested_by_account_id: o.requestedBy,
        version: 1
      })
    }`

  /** The directory network of a CAIP-2 id or a network id (uuid), or none. */
  const findNetwork = (idOrCaip2: string) =>
    Effect.map(
      sql<{ readonly id: string; readonly caip2: string | null }>`SELECT id, caip2 FROM networks
        WHERE ${/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrCaip2) ? sql`id = ${idOrCaip2.toLowerCase()}` : sql`caip2 = ${idOrCaip2}`}`,
      (rows) => Option.fromNullable(rows[0])
    )

  /** An asset of a network by id or CAIP-19 id, with its CAIP-19 id (null when it has none), or none. */
  const findAsset = (networkId: string, by: { readonly id: string } | { readonly caip19: string }) =>
    Effect.map(
      sql<{ readonly id: string; readonly caip19: string | null }>`SELECT id, caip19 FROM assets
        WHERE network_id = ${networkId} AND ${"id" in by ? sql`id = ${by.id}` : sql`caip19 = ${by.caip19}`}`,
      (rows) => Option.fromNullable(rows[0])
    )

  /** Adds an asset row for a CAIP-19 id (nothing when one exists). */
  const ensureAsset = (a: { readonly id: string; readonly networkId: string; readonly caip19: string; readonly symbol: string | null; readonly decimals: number }) =>
    sql`INSERT INTO assets (id, network_id, symbol, decimals, caip19)
        VALUES (${a.id}, ${a.networkId}, ${a.symbol}, ${a.decimals}, ${a.caip19}) ON CONFLICT (caip19) DO NOTHING`

  /** Sets the state (and the given columns) of an operation in one of `fromStates`; version + 1. Returns whether it moved. */
  const move = (id: string, fromStates: ReadonlyArray<string>, set: { readonly state: string; readonly at: Date; readonly failureCode?: string | null; readonly transactionIntentId?: string; readonly journalEntryId?: string; readonly reconciled?: boolean }) =>
    Effect.map(
      sql`UPDATE token_operations SET state = ${set.state}, updated_at = ${set.at}, version = version + 1
            ${set.failureCode !== undefined ? sql`, failure_code = ${set.failureCode}` : sql``}
            ${set.transactionIntentId !== undefined ? sql`, transaction_intent_id = ${set.transactionIntentId}` : sql``}
            ${set.journalEntryId !== undefined ? sql`, journal_entry_id = ${set.journalEntryId}` : sql``}
            ${set.reconciled === true ? sql`, reconciled_at = ${set.at}` : sql``}
          WHERE id = ${id} AND state IN ${sql.in(fromStates)} RETURNING id`,
      (rows) => rows.length === 1
    )

  /** Writes a journal entry and its lines (numbered from 1). */
  const insertJournalEntry = (entry: {
    readonly id: string
    readonly operationId: string
    readonly network: string
    readonly assetId: string
    readonly transactionHash: string
    readonly memo: string
    readonly at: Date
    readonly lines: ReadonlyArray<JournalLine>
  }) =>
    Effect.zipRight(
      sql`INSERT INTO journal_entries ${
        sql.insert({
          id: entry.id,
          token_operation_id: entry.operationId,
          network: entry.network,
          asset_id: entry.assetId,
          transaction_hash: entry.transactionHash,
          memo: entry.memo,
          posted_at: entry.at
        })
      }`,
      sql`INSERT INTO journal_entry_lines ${
        sql.insert(entry.lines.map((l, i) => ({
          journal_entry_id: entry.id,
          line_no: i + 1,
          account: l.account,
          side: l.side,
          units: l.units.toString()
        })))
      }`
    )

  return { list, findById, findRow, insert, findNetwork, findAsset, ensureAsset, move, insertJournalEntry } as const
})

/** SQL of token operations. */
export class TokenOperationsRepo extends Effect.Service<TokenOperationsRepo>()("agent-directory/TokenOperationsRepo", {
  effect: makeTokenOperationsRepo
}) {}
