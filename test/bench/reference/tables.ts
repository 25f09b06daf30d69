/**
 * REFERENCE ONLY: the tables of the project's earlier job queue (`test/bench/reference/Jobs.ts`),
 * the SQL of its original migration `src/db/migrations/0003_jobs.ts` (commit 977c2c8^), for
 * the scratch database of `npm run bench:engine`. Not a migration of the service.
 */
export const ReferenceJobTables = `
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
`
