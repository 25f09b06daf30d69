/**
 * The watcher's reads and moves of `transaction_intents` (migration 0036): the intents it
 * follows on a network (SUBMITTED, OBSERVED), each move guarded by the state it leaves (so a
 * move runs once), and the row as the wire `TransactionIntent` given to outcome handlers.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { TransactionIntent, type TransactionIntentState } from "../../../schema/transactionIntents.js"
import type { IntentPurpose } from "../../../layers/TransactionIntents.js"

/** One intent row, every column as text (numbers as decimal strings, times as wire date-times). */
interface IntentRow {
  readonly id: string
  readonly network: string
  readonly state: string
  readonly signer: string
  readonly from: string
  readonly to: string
  readonly data: string
  readonly call: unknown
  readonly value: string
  readonly gasLimit: string
  readonly maxFeePerGas: string
  readonly maxPriorityFeePerGas: string
  readonly nonce: string | null
  readonly typedData: unknown
  readonly transactionHash: string | null
  readonly blockNumber: string | null
  readonly blockHash: string | null
  readonly failureCode: string | null
  readonly expiresAt: string
  readonly createdAt: string
  readonly submittedAt: string | null
  readonly observedAt: string | null
  readonly confirmedAt: string | null
  readonly updatedAt: string
  readonly version: string
  readonly purposeKind: string
  readonly purposeId: string
}

/** A followed intent: the wire shape and its purpose. */
export interface WatchedIntent {
  readonly intent: TransactionIntent
  readonly purpose: IntentPurpose
}

const columns = (sql: SqlClient.SqlClient) =>
  sql`id::text AS id, network, state, signer, from_address AS "from", to_address AS "to", data, call,
      value::text AS value, gas_limit::text AS "gasLimit", max_fee_per_gas::text AS "maxFeePerGas",
      max_priority_fee_per_gas::text AS "maxPriorityFeePerGas", nonce::text AS nonce, typed_data AS "typedData",
      transaction_hash AS "transactionHash", block_number::text AS "blockNumber", block_hash AS "blockHash",
      failure_code AS "failureCode", api_ts(expires_at) AS "expiresAt", api_ts(created_at) AS "createdAt",
      api_ts(submitted_at) AS "submittedAt", api_ts(observed_at) AS "observedAt", api_ts(confirmed_at) AS "confirmedAt",
      api_ts(updated_at) AS "updatedAt", version::text AS version, purpose_kind AS "purposeKind", purpose_id::text AS "purposeId"`

const decodeIntent = Schema.decodeUnknownSync(TransactionIntent)

/** The row as the wire shape; `transactionUrl` gives its explorer link. A row the schema refuses is a defect. */
const toWatched = (row: IntentRow, transactionUrl: (network: string, hash: string) => string | null): WatchedIntent => ({
  purpose: { kind: row.purposeKind, id: row.purposeId },
  intent: decodeIntent({
    id: row.id,
    network: row.network,
    state: row.state,
    signer: row.signer,
    from: row.from,
    to: row.to,
    data: row.data,
    call: typeof row.call === "string" ? JSON.parse(row.call) : row.call,
    value: row.value,
    fees: { gasLimit: row.gasLimit, maxFeePerGas: row.maxFeePerGas, maxPriorityFeePerGas: row.maxPriorityFeePerGas },
    nonce: row.nonce === null ? null : Number(row.nonce),
    typedData: typeof row.typedData === "string" ? JSON.parse(row.typedData) : row.typedData ?? null,
    transactionHash: row.transactionHash,
    blockNumber: row.blockNumber,
    blockHash: row.blockHash,
    explorerUrl: row.transactionHash === null ? null : transactionUrl(row.network, row.transactionHash),
    failureCode: row.failureCode,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    submittedAt: row.submittedAt,
    observedAt: row.observedAt,
    confirmedAt: row.confirmedAt,
    updatedAt: row.updatedAt,
    version: Number(row.version)
  })
})

/** What a move writes besides the state. */
export interface IntentMove {
  readonly to: TransactionIntentState
  readonly blockNumber?: bigint | null
  readonly blockHash?: string | null
  readonly failureCode?: string | null
  readonly at: Date
}

/** The watcher's intent SQL on the caller's `SqlClient` (dies on storage failure). */
export const intentRows = (transactionUrl: (network: string, hash: string) => string | null) =>
  Effect.map(SqlClient.SqlClient, (sql) => ({
    /** SUBMITTED intents of `network` with a hash, oldest first (at most `limit`). */
    submitted: (network: string, limit: number) =>
      sql<IntentRow>`SELECT ${columns(sql)} FROM transaction_intents
        WHERE network = ${network} AND state = 'SUBMITTED' AND transaction_hash IS NOT NULL
        ORDER BY submitted_at, id LIMIT ${limit}`.pipe(
        Effect.map((rows) => rows.map((r) => toWatched(r, transactionUrl))),
        Effect.orDie
      ),
    /** OBSERVED intents of `network` whose block is at or below `maxBlock`. */
    observedUpTo: (network: string, maxBlock: bigint) =>
      sql<IntentRow>`SELECT ${columns(sql)} FROM transaction_intents
        WHERE network = ${network} AND state = 'OBSERVED' AND block_number <= ${maxBlock.toString()}::numeric
        ORDER BY block_number, id`.pipe(Effect.map((rows) => rows.map((r) => toWatched(r, transactionUrl))), Effect.orDie),
    /** OBSERVED intents of `network` whose block is above `ancestor` (dropped by a reorg). */
    observedAbove: (network: string, ancestor: bigint) =>
      sql<IntentRow>`SELECT ${columns(sql)} FROM transaction_intents
        WHERE network = ${network} AND state = 'OBSERVED' AND block_number > ${ancestor.toString()}::numeric
        ORDER BY block_number, id`.pipe(Effect.map((rows) => rows.map((r) => toWatched(r, transactionUrl))), Effect.orDie),
    /**
     * Moves intent `id` from `from` to `move.to` (block, failure code and the state's time set;
     * back to SUBMITTED clears the block); answers the moved intent, or none when it was no longer
     * in `from` (another move won).
     */
    move: (id: string, from: TransactionIntentState, move: IntentMove) => {
      const block = move.to === "SUBMITTED"
        ? sql`block_number = NULL, block_hash = NULL, observed_at = NULL`
        : move.blockNumber === undefined
        ? sql`block_number = block_number`
        : sql`block_number = ${move.blockNumber === null ? null : move.blockNumber.toString()}::numeric, block_hash = ${move.blockHash ?? null}`
      const stamp = move.to === "OBSERVED"
        ? sql`, observed_at = ${move.at}`
        : move.to === "CONFIRMED"
        ? sql`, confirmed_at = ${move.at}`
        : sql``
      return sql<IntentRow>`UPDATE transaction_intents SET state = ${move.to}, ${block}${stamp},
            failure_code = ${move.failureCode ?? null}, updated_at = ${move.at}, version = version + 1
          WHERE id = ${id} AND state = ${from}
          RETURNING ${columns(sql)}`.pipe(
        Effect.map((rows) => rows[0] === undefined ? undefined : toWatched(rows[0], transactionUrl)),
        Effect.orDie
      )
    }
  }))
