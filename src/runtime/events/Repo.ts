/**
 * SQL of following a run (tables `runs` and `run_events` of migration
 * 0021): the run's head (who may see it, its state and its last event's `seq`) and its
 * events after a `seq`.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { RunState } from "../Schemas.js"

/**
 * What a follower needs of the run: its agent and its conversation's author (visibility, as
 * Runtime_GetRun: `seesConversation`), state, last event `seq`, whether its data was cleared.
 */
export const RunHead = Schema.Struct({
  agentId: Schema.String,
  authorAccountId: Schema.NullOr(Schema.String),
  state: RunState,
  eventSeq: Schema.NumberFromString,
  dataCleared: Schema.Boolean
})
export type RunHead = typeof RunHead.Type

/** One stored event, `data` as stored (JSON). */
export const StoredRunEvent = Schema.Struct({
  seq: Schema.NumberFromString,
  kind: Schema.String,
  data: Schema.Unknown
})
export type StoredRunEvent = typeof StoredRunEvent.Type

/** Events read at most per statement. */
export const RunEventsPage = 500

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The run's head, if the run exists. */
  const head = SqlSchema.findOne({
    Request: Schema.String,
    Result: RunHead,
    execute: (runId) =>
      sql`SELECT r.agent_id AS "agentId", c.account_id AS "authorAccountId", r.state, r.event_seq::text AS "eventSeq",
            r.data_cleared_at IS NOT NULL AS "dataCleared"
          FROM runs r LEFT JOIN conversations c ON c.id = r.conversation_id WHERE r.id = ${runId}`
  })

  /**
   * The run's events with `after < seq <= upTo`, in `seq` order, at most
   * {@link RunEventsPage}. Every event up to a head's `eventSeq` committed with it, so
   * reading up to it after reading the head never skips one.
   */
  const after = SqlSchema.findAll({
    Request: Schema.Struct({ runId: Schema.String, after: Schema.Number, upTo: Schema.Number }),
    Result: StoredRunEvent,
    execute: (r) =>
      sql`SELECT seq::text AS seq, kind, data FROM run_events
          WHERE run_id = ${r.runId} AND seq > ${r.after} AND seq <= ${r.upTo}
          ORDER BY seq LIMIT ${RunEventsPage}`
  })

  return { head, after } as const
})

/** The SQL of following a run. Requires `SqlClient`; each function fails with `SqlError` or `ParseError`. */
export class RunEventsRepo extends Effect.Service<RunEventsRepo>()("agent-directory/RunEventsRepo", { effect: make }) {}
