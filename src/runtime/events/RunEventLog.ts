/**
 * Appending to a run's event log (`run_events`, src/runtime/events/Schemas.ts). Every change a
 * follower of a run should see appends its event in the transaction that makes the
 * change: the event commits with it or not at all.
 *
 * The next `seq` is taken by updating the run's `event_seq`, which locks the run's row
 * until the transaction ends: appends of one run are serialized, so `seq` order is
 * commit order and a reader that asks for `seq > n` never misses an event that
 * committed after a later one. On PostgreSQL `pg_notify('run_events', runId)` wakes
 * followers in other processes when the transaction commits (they also poll, so a lost
 * notification only delays them).
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"
import type { RunEvent } from "./Schemas.js"

/** The PostgreSQL notification channel of run events; its payload is the run id. */
export const RunEventsChannel = "run_events"

/**
 * Appends `event` to the log of `runId` at `at`; returns its `seq`. Must run inside the
 * transaction that makes the change (it locks the run's row until that ends). Fails with
 * `SqlError`; dies if the run does not exist.
 */
export const appendRunEvent = (runId: string, event: RunEvent, at: Date): Effect.Effect<number, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ seq: string }>`UPDATE runs SET event_seq = event_seq + 1 WHERE id = ${runId} RETURNING event_seq::text AS seq`
    if (rows.length === 0) return yield* Effect.dieMessage(`appendRunEvent: no run ${runId}`)
    const seq = Number(rows[0]!.seq)
    yield* sql`INSERT INTO run_events (run_id, seq, kind, data, created_at)
               VALUES (${runId}, ${seq}, ${event.kind}, ${JSON.stringify(event.data)}::jsonb, ${at})`
    yield* sql`SELECT pg_notify(${RunEventsChannel}, ${runId})`
    return seq
  })
