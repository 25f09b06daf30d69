/**
 * The durable job runner's tables (layers/Jobs.ts).
 *
 * - `jobs`: one row per job run. A runner claims due rows with `FOR UPDATE SKIP LOCKED`
 *   and holds a lease (`locked_by`, `locked_until`); an expired lease makes the job
 *   claimable again (at-least-once). `dedupe_key` is unique among unfinished jobs.
 * - `job_schedules`: cron schedules; whichever runner claims a due schedule row enqueues
 *   its job (deduplicated per occurrence) and moves `next_run_at`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'running', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL CHECK (max_attempts >= 1),
  run_at timestamptz NOT NULL,
  dedupe_key text,
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE state IN ('pending', 'running');
CREATE INDEX jobs_recent_idx ON jobs (created_at DESC, id DESC);
CREATE UNIQUE INDEX jobs_dedupe_key ON jobs (dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('pending', 'running');

CREATE TABLE job_schedules (
  name text PRIMARY KEY,
  cron text NOT NULL,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  next_run_at timestamptz NOT NULL
);
`)
})
