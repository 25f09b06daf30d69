/**
 * API key management (spec §5.3 Creation, Rotation): a key's name, browser origin
 * allowlist (spec §5.4.2), who created it, when it was last used and when revoked.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE api_keys
  ADD COLUMN name text NOT NULL DEFAULT '',
  ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}',
  ADD COLUMN created_by uuid REFERENCES accounts(id),
  ADD COLUMN last_used_at timestamptz,
  ADD COLUMN revoked_at timestamptz;

CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id, created_at, id);
`)
})
