/**
 * Demo data of following a run: the event log of the member's finished
 * chat run (`DemoRuns[2]`, "Size the EU market."), so `Runtime_StreamRunEvents` shows a
 * whole stream on the demo data: the run starting, its answer streamed in two deltas,
 * completed, its usage, and the run SUCCEEDED.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { RunEvent } from "./events/Schemas.js"
import { demoTime } from "../db/demo.js"
import { DemoConversations, demoMessageId, DemoRuns } from "./demo.js"

/** The demo run whose events are stored, and its answer message. */
const run = DemoRuns[2]
const answer = demoMessageId(6)

/** The demo run with an event log, and its events in `seq` order (1, 2, …). */
export const DemoRunEvents = {
  runId: run.id,
  events: [
    { kind: "run.state", data: { runId: run.id, state: "RUNNING", version: 3, failureCode: null } },
    { kind: "message.delta", data: { messageId: answer, delta: "About 2.1 billion" } },
    { kind: "message.delta", data: { messageId: answer, delta: " EUR in 2026." } },
    { kind: "message.completed", data: { messageId: answer, state: "COMPLETE" } },
    { kind: "usage", data: { inputTokens: 42, outputTokens: 9, costMicroUsd: null } },
    { kind: "run.state", data: { runId: run.id, state: "SUCCEEDED", version: 4, failureCode: null } }
  ] satisfies ReadonlyArray<RunEvent>
} as const

/** Inserts {@link DemoRunEvents} and sets the run's `event_seq`; called by `seed.ts` after the runs. Fails with `SqlError`. */
export const seedDemoRunEvents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const day = DemoConversations[run.conversation].day
  yield* sql`INSERT INTO run_events ${
    sql.insert(DemoRunEvents.events.map((e, i) => ({
      run_id: DemoRunEvents.runId,
      seq: i + 1,
      kind: e.kind,
      data: JSON.stringify(e.data),
      created_at: demoTime(day, 3 + i)
    })))
  }`
  yield* sql`UPDATE runs SET event_seq = ${DemoRunEvents.events.length} WHERE id = ${DemoRunEvents.runId}`
})
