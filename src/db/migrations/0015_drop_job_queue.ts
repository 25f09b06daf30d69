/**
 * The home-made job queue of 0003 is gone: background work runs on the durable engine
 * (`layers/Engine.ts`), whose tables the engine creates itself. Purges and partner syncs
 * start again by cron; a job still pending here when this runs is dropped with it, so an
 * agent run or an analytics export it would have served stays QUEUED or REQUESTED (ask
 * again: send the message or request the export anew).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
DROP TABLE IF EXISTS job_schedules;
DROP TABLE IF EXISTS jobs;
`)
})
