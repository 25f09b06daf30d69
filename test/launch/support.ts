/** Helpers of the Launch tests: the materialize call, direct reads, and a reset to the demo runs. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoLaunchRuns, type DemoLaunchRunName, seedLaunchRuns } from "../../demo/launch/seed.js"
import { call, type CallOptions } from "../support/http.js"

/** POST /api/v1/launch-runs/{runId}/transaction-intent (a demo run name or any id). */
export const materialize = (run: DemoLaunchRunName | string, options: CallOptions = {}) =>
  call("POST", `/api/v1/launch-runs/${run in DemoLaunchRuns ? DemoLaunchRuns[run as DemoLaunchRunName].id : run}/transaction-intent`, options)

/** A run's row as stored. */
export const readRun = (run: DemoLaunchRunName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ state: string; version: number; attemptCount: number; intentId: string | null }>`
      SELECT state, version::int AS version, attempt_count AS "attemptCount", transaction_intent_id AS "intentId"
      FROM launch_runs WHERE id = ${DemoLaunchRuns[run].id}`
    return rows[0]!
  }).pipe(Effect.orDie)

/** A run's transaction intents, by attempt. */
export const readIntents = (run: DemoLaunchRunName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ id: string; attempt: number; state: string }>`
      SELECT id, attempt, state FROM launch_transaction_intents WHERE launch_run_id = ${DemoLaunchRuns[run].id} ORDER BY attempt`
  }).pipe(Effect.orDie)

/** Puts every demo launch run (and its intents) back as seeded. */
export const restoreLaunchRuns = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM launch_transaction_intents`
  yield* sql`DELETE FROM launch_runs`
  yield* seedLaunchRuns
}).pipe(Effect.orDie)
