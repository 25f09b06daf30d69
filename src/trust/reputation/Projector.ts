/**
 * The projector of the trust, rank and performance projections on the durable engine,
 * two jobs:
 *
 * - **Incremental** (`ReputationProjector`, a cluster `Singleton`: exactly one runner of the
 *   cluster runs it; if that runner dies its shard moves and another starts it): drains
 *   `reputation_dirty_agents` (marks written by `markAgentEvidence`, src/trust/reputation/Evidence.ts,
 *   in the evidence's own transaction) in batches of {@link DrainBatch}. A batch is one
 *   transaction: the marks are deleted (`FOR UPDATE SKIP LOCKED`), the marked agents projected
 *   (src/trust/reputation/Projection.ts) and every listed agent re-ranked; a failure rolls the marks
 *   back. A writer marking an agent whose mark is being drained waits for the drain to commit,
 *   then marks it again, so no evidence is missed. Wake-ups: PostgreSQL `LISTEN
 *   reputation_evidence` (the marks' `pg_notify`), with a {@link FallbackPollMs} safety poll;
 *   the embedded database (no LISTEN) polls every {@link EmbeddedPollMs}. So a feedback shows
 *   on `/trust` well under 5 s after its commit.
 * - **Full** (`ReputationFullRecompute`, a `ClusterCron` at minute 7 of every hour, UTC): every
 *   agent projected in the same set-based statement (catches evidence no mark names, and the
 *   evidence window moving past midnight). The singleton also runs one full recompute at
 *   start when no projection exists yet (a database upgraded to migration 0027).
 */
import { ClusterCron, Singleton } from "@effect/cluster"
import { SqlClient, type SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Cron, Effect, Layer, Schedule, Stream } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient } from "../../../layers/Engine.js"
import { ReputationEvidenceChannel } from "./Evidence.js"
import { projectAgents } from "./Projection.js"

/** Most marked agents projected in one transaction. */
export const DrainBatch = 500
/** Poll interval on the embedded database (no LISTEN), ms. */
export const EmbeddedPollMs = 300
/** Safety poll on PostgreSQL (a notification lost while the listener reconnected), ms. */
export const FallbackPollMs = 5_000

/**
 * Drains up to {@link DrainBatch} marks in one transaction and projects their agents;
 * answers how many were drained. Fails with `SqlError`.
 */
export const drainMarks: Effect.Effect<number, SqlError.SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.gen(function*() {
    const rows = yield* sql<{ agentId: string }>`DELETE FROM reputation_dirty_agents WHERE agent_id IN (
        SELECT agent_id FROM reputation_dirty_agents ORDER BY marked_at, agent_id LIMIT ${DrainBatch} FOR UPDATE SKIP LOCKED)
      RETURNING agent_id AS "agentId"`
    if (rows.length === 0) return 0
    yield* projectAgents(rows.map((r) => r.agentId).sort(), yield* now)
    return rows.length
  }))
})

/** Projects every agent in one transaction; answers how many. Fails with `SqlError`. */
export const recomputeAll: Effect.Effect<number, SqlError.SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.flatMap(now, (at) => projectAgents("all", at)))
})

/** The incremental projector's loop (see the module's description). */
const projectorLoop = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pg = yield* PgClient.PgClient
  const wake = yield* Effect.makeLatch(false)
  const [row] = yield* sql<{ embedded: boolean }>`SELECT version() LIKE '%PGlite%' AS embedded`.pipe(retryTransient)
  const embedded = row?.embedded === true
  if (!embedded) {
    yield* pg.listen(ReputationEvidenceChannel).pipe(
      Stream.runForEach(() => wake.open),
      Effect.tapErrorCause((cause) => Effect.logWarning("reputation: LISTEN failed; retrying (polling meanwhile)", cause)),
      Effect.retry(Schedule.exponential("500 millis").pipe(Schedule.union(Schedule.spaced("30 seconds")))),
      Effect.forkScoped
    )
  }
  const [projected] = yield* sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM agent_reputation) AS any`.pipe(retryTransient)
  if (projected?.any !== true) {
    const n = yield* recomputeAll.pipe(retryTransient)
    if (n > 0) yield* Effect.logInfo("reputation: first full projection").pipe(Effect.annotateLogs({ agents: n }))
  }
  const pollMs = embedded ? EmbeddedPollMs : FallbackPollMs
  while (true) {
    yield* wake.close
    const drained = yield* drainMarks.pipe(
      retryTransient,
      Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("reputation: drain failed; retrying later", cause), 0))
    )
    if (drained < DrainBatch) yield* Effect.raceFirst(wake.await, Effect.sleep(pollMs))
  }
})

/** The incremental projector, on exactly one runner of the cluster. */
const ReputationProjector = Singleton.make("ReputationProjector", Effect.scoped(projectorLoop))

/** The hourly full recompute (minute 7, UTC). */
const ReputationFullRecompute = ClusterCron.make({
  name: "ReputationFullRecompute",
  cron: Cron.unsafeParse("7 * * * *", "UTC"),
  skipIfOlderThan: "2 hours",
  execute: recomputeAll.pipe(
    retryTransient,
    Effect.tap((n) => Effect.logInfo("reputation: full recompute").pipe(Effect.annotateLogs({ agents: n }))),
    Effect.asVoid
  )
})

/** Both jobs, registered on the engine (needs the engine's `Sharding`, `SqlClient` and `PgClient`). */
export const ReputationWorkflows = Layer.mergeAll(ReputationProjector, ReputationFullRecompute)
