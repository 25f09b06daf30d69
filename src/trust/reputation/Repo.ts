/** SQL of the reputation area's reads: an agent's stored projection (`agent_reputation`, migration 0027). */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { dieOnStorageFailure } from "../../db/storageFailure.js"

/** One agent's projection row, or the agent alone when it has none yet (documents null). */
export interface ReputationRow {
  readonly agentId: string
  readonly rank: string | null
  readonly listed: boolean
  readonly trust: unknown
  readonly performance: unknown
  readonly rankDoc: unknown
  readonly projectedAt: string | null
  readonly sourceWatermark: string | null
}

/** Reads of the projections. Requires `SqlClient`. */
export class ReputationRepo extends Effect.Service<ReputationRepo>()("agent-directory/ReputationRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The agent `agentId` (any state) with its projection; none when no agent has this id. */
    const find = (agentId: string) =>
      sql<ReputationRow>`SELECT a.id AS "agentId", a.rank::text AS rank,
            (a.listed_at IS NOT NULL AND a.state = 'ACTIVE') AS listed,
            r.trust, r.performance, r.rank AS "rankDoc", api_ts(r.projected_at) AS "projectedAt",
            r.source_watermark AS "sourceWatermark"
          FROM agents a LEFT JOIN agent_reputation r ON r.agent_id = a.id WHERE a.id = ${agentId}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        dieOnStorageFailure
      )

    return { find }
  })
}) {}
