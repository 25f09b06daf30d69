/**
 * Agents registered through the API (Agents_CreateAgent, Agents_UpdateAgent,
 * Agents_RetireAgent), not only by the demo seed.
 *
 * - `version`: the optimistic-concurrency counter of the profile (spec §2.1 version).
 * - `links`: the agent's links, a JSON array of `{label, url}` (at most 20).
 * - `state`: ACTIVE or RETIRED. Retiring also clears `listed_at`, so the directory list and
 *   its keyset indexes (partial on `listed_at IS NOT NULL`, 0013) leave the agent out with
 *   no change to any read; `retired_at` says when.
 * - `created_at`, `updated_at`: null for agents that predate this migration.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE agents ADD COLUMN version bigint NOT NULL DEFAULT 1 CHECK (version > 0);
ALTER TABLE agents ADD COLUMN links jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE agents ADD COLUMN state text NOT NULL DEFAULT 'ACTIVE' CHECK (state IN ('ACTIVE','RETIRED'));
ALTER TABLE agents ADD COLUMN retired_at timestamptz;
ALTER TABLE agents ADD COLUMN created_at timestamptz;
ALTER TABLE agents ADD COLUMN updated_at timestamptz;
ALTER TABLE agents ADD CONSTRAINT agents_retired_unlisted CHECK (state = 'ACTIVE' OR (retired_at IS NOT NULL AND listed_at IS NULL));
`)
})
