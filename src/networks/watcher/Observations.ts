/**
 * The CHAIN_OBSERVATION items of one block, written in one statement: the rows
 * layers/Activity.ts `recordActivity` writes (source kind CHAIN_OBSERVATION, the network's
 * row, deduplicated by agent and `dedupeKey`: a second record is ignored), each with the
 * block it was seen in (`chain_block_number`, migration 0038), so a reorg deletes the items of
 * the blocks it drops. One multi-row insert instead of one `recordActivity` per item: a block
 * of a busy network carries hundreds of watched transfers (test/bench/chain.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Ids } from "../../../layers/Ids.js"

/** One observation of a block. */
export interface Observation {
  readonly agentId: string
  /** `chain.transaction` or `chain.token_transfer`. */
  readonly activityKey: string
  /** `<network>:<txHash>[:<logIndex>]`. */
  readonly dedupeKey: string
  /** One public sentence. */
  readonly summary: string
  /** The transaction hash. */
  readonly transactionReference: string
  readonly explorerUrl: string | null
  /** The block's time. */
  readonly occurredAt: Date
}

/** Records the observations of block `blockNumber` of `network` (CAIP-2) in the caller's transaction. Dies on storage failure. */
export const recordObservations = (
  items: ReadonlyArray<Observation>,
  network: string,
  blockNumber: bigint
): Effect.Effect<void, never, SqlClient.SqlClient | Ids> =>
  Effect.gen(function*() {
    if (items.length === 0) return
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const [row] = yield* sql<{ id: string }>`SELECT id FROM networks WHERE caip2 = ${network}`
    const rows = []
    for (const item of items) {
      rows.push({
        id: yield* ids.next,
        agent_id: item.agentId,
        activity_key: item.activityKey,
        dedupe_key: item.dedupeKey,
        event_version: 1,
        summary: item.summary,
        source_kind: "CHAIN_OBSERVATION",
        network_id: row?.id ?? null,
        transaction_reference: item.transactionReference,
        explorer_url: item.explorerUrl,
        evidence_public_id: null,
        occurred_at: item.occurredAt,
        chain_block_number: blockNumber.toString()
      })
    }
    yield* sql`INSERT INTO agent_activity ${sql.insert(rows)} ON CONFLICT (agent_id, dedupe_key) DO NOTHING`
  }).pipe(Effect.orDie)
