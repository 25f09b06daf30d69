/**
 * The watcher's reads of `transaction_intents` (the intents it follows on a network: SUBMITTED
 * with a hash, OBSERVED), through the intents' shared row reader (layers/TransactionIntents.ts
 * `selectIntents`); its moves go through `transitionIntent` (guarded by the state left, the
 * purpose's handler called in the same transaction).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type IntentRecord, selectIntents } from "../../../layers/TransactionIntents.js"

/** A followed intent: the wire shape and its purpose. */
export type WatchedIntent = IntentRecord

/** The watcher's intent reads on the caller's `SqlClient` (dies on storage failure). */
export const intentRows = Effect.map(SqlClient.SqlClient, (sql) => ({
  /** SUBMITTED intents of `network` with a hash, oldest first (at most `limit`). */
  submitted: (network: string, limit: number) =>
    selectIntents(sql`t.network = ${network} AND t.state = 'SUBMITTED' AND t.transaction_hash IS NOT NULL`, { limit, oldestFirst: true }),
  /** OBSERVED intents of `network` whose block is at or below `maxBlock`. */
  observedUpTo: (network: string, maxBlock: bigint) =>
    selectIntents(sql`t.network = ${network} AND t.state = 'OBSERVED' AND t.block_number <= ${maxBlock.toString()}::numeric`, {
      oldestFirst: true
    }),
  /** OBSERVED intents of `network` whose block is above `ancestor` (dropped by a reorg). */
  observedAbove: (network: string, ancestor: bigint) =>
    selectIntents(sql`t.network = ${network} AND t.state = 'OBSERVED' AND t.block_number > ${ancestor.toString()}::numeric`, {
      oldestFirst: true
    })
}))
