/** Fixtures of the run event tests: runs written by hand, and their events appended as the run pipeline does. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { RunEvent } from "../../src/runtime/events/Schemas.js"
import { appendRunEvent } from "../../src/runtime/events/RunEventLog.js"

let runs = 0
const at = new Date("2026-05-01T00:00:00.000Z")

/** Inserts a run of `agent` in `conversationId` (no workflow runs it) in `state`; returns its id. */
export const insertRun = (agent: string, conversationId: string | null, state: string, prefix = "0000000d") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = `${prefix}-0000-7000-8000-${(++runs).toString(16).padStart(12, "0")}`
    yield* sql`INSERT INTO runs (id, conversation_id, agent_id, trigger_type, state, version, is_playground,
                 retention_expires_at, created_at, updated_at)
               VALUES (${id}, ${conversationId}, ${agent}, ${conversationId === null ? "SCHEDULE" : "MESSAGE"}, ${state}, 1,
                 false, ${new Date("2027-01-01T00:00:00.000Z")}, ${at}, ${at})`
    return id
  }).pipe(Effect.orDie)

/** Appends `events` to the run's log, in one transaction (as one change of the run pipeline). */
export const append = (runId: string, ...events: ReadonlyArray<RunEvent>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(Effect.forEach(events, (e) => appendRunEvent(runId, e, at)))
  }).pipe(Effect.orDie)

/** Moves the run to `state` and appends its `run.state` event, in one transaction. */
export const finish = (runId: string, state: "SUCCEEDED" | "FAILED" | "CANCELLED" = "SUCCEEDED") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.gen(function*() {
      const [row] = yield* sql<{ version: number }>`UPDATE runs SET state = ${state}, version = version + 1
                                                   WHERE id = ${runId} RETURNING version::int AS version`
      yield* appendRunEvent(runId, { kind: "run.state", data: { runId, state, version: row!.version, failureCode: null } }, at)
    }))
  }).pipe(Effect.orDie)

/** A `message.delta` event. */
export const delta = (messageId: string, text: string): RunEvent => ({ kind: "message.delta", data: { messageId, delta: text } })

/** A `run.state` event. */
export const stateEvent = (runId: string, state: "RUNNING" | "SUCCEEDED", version: number): RunEvent =>
  ({ kind: "run.state", data: { runId, state, version, failureCode: null } })
