/**
 * The job board (Jobs_ListJobs, Jobs_GetJob, docs/jobs.md): OPEN bounties and partner jobs read as one
 * list, and partner sources an admin creates and changes.
 *
 * - `partner_jobs` gets an `id` (the job's id on the board, a random UUID given when the sync first
 *   stores the job; the primary key stays the partner's `(source_id, external_id)`), the skills, protocols and reward a feed of version 2 gives, and
 *   `withdrawn_at`: set when a successful sync no longer lists the job (a feed is the partner's whole
 *   list), cleared when it comes back.
 * - `partner_job_sources` may serve feed version 1 or 2 (`response_schema_version`), and records what its
 *   last successful sync stored and skipped (`last_sync_job_count`, `last_sync_skipped_count`,
 *   `last_sync_skipped`: the first 20 skipped jobs' index, external id and failed rule, never a value).
 * - `job_search_document(title, description)`: the text a job is searched by (title weight A, description
 *   C, the `agent_search` configuration of migration 0049), IMMUTABLE so both tables index it.
 * - Indexes of the board's filters and sorts on both tables (on `bounties` only partial indexes of OPEN rows).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE FUNCTION job_search_document(title text, description text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN setweight(to_tsvector('agent_search'::regconfig, title), 'A')
    || setweight(to_tsvector('agent_search'::regconfig, COALESCE(description, '')), 'C');

ALTER TABLE partner_jobs
  ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid(),
  ADD COLUMN skills text[] NOT NULL DEFAULT '{}',
  ADD COLUMN protocols text[] NOT NULL DEFAULT '{}',
  ADD COLUMN reward_units numeric(78,0) CHECK (reward_units >= 0),
  ADD COLUMN reward_asset text CHECK (length(reward_asset) BETWEEN 1 AND 20),
  ADD COLUMN reward_network text CHECK (length(reward_network) BETWEEN 1 AND 100),
  ADD COLUMN withdrawn_at timestamptz,
  ADD CONSTRAINT partner_jobs_reward_check CHECK (
    (reward_units IS NULL) = (reward_asset IS NULL) AND (reward_units IS NULL) = (reward_network IS NULL));
ALTER TABLE partner_jobs ADD CONSTRAINT partner_jobs_id_key UNIQUE (id);
CREATE INDEX partner_jobs_posted_idx ON partner_jobs (posted_at DESC, id DESC) WHERE withdrawn_at IS NULL;
CREATE INDEX partner_jobs_closes_idx ON partner_jobs (closes_at) WHERE withdrawn_at IS NULL;
CREATE INDEX partner_jobs_reward_idx ON partner_jobs (upper(reward_asset), reward_units DESC, id DESC) WHERE withdrawn_at IS NULL;
CREATE INDEX partner_jobs_search_idx ON partner_jobs USING gin (job_search_document(title, description));
CREATE INDEX partner_jobs_skills_idx ON partner_jobs USING gin (skills);
CREATE INDEX partner_jobs_protocols_idx ON partner_jobs USING gin (protocols);

ALTER TABLE partner_job_sources DROP CONSTRAINT partner_job_sources_response_schema_version_check;
ALTER TABLE partner_job_sources
  ADD CONSTRAINT partner_job_sources_response_schema_version_check CHECK (response_schema_version IN (1, 2)),
  ADD COLUMN last_sync_job_count integer CHECK (last_sync_job_count >= 0),
  ADD COLUMN last_sync_skipped_count integer CHECK (last_sync_skipped_count >= 0),
  ADD COLUMN last_sync_skipped jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN created_at timestamptz;
UPDATE partner_job_sources SET created_at = updated_at;
ALTER TABLE partner_job_sources ALTER COLUMN created_at SET NOT NULL;

CREATE INDEX bounties_open_search_idx ON bounties USING gin (job_search_document(title, description)) WHERE state = 'OPEN';
CREATE INDEX bounties_open_skills_idx ON bounties USING gin (required_skills) WHERE state = 'OPEN';
CREATE INDEX bounties_open_protocols_idx ON bounties USING gin (required_protocols) WHERE state = 'OPEN';
CREATE INDEX bounties_open_reward_idx ON bounties (asset_id, escrow_units DESC, id DESC) WHERE state = 'OPEN';
`)
})
