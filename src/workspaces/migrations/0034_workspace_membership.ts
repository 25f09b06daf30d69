/**
 * Members, invitations and ownership (spec §2.12, §4.3 workspaces):
 * - `workspace_invitations.token_hash`: the SHA-256 of the invitation's mailed token
 *   (`tokenHash` in layers/Auth.ts; the token itself is never stored), unique;
 * - at most one PENDING invitation per workspace and address (case-insensitive);
 * - **exactly one owner**: at most one ACTIVE member with `is_workspace_owner` per
 *   workspace (a partial unique index), and the owner flag goes with the OWNER role.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE workspace_invitations ADD COLUMN token_hash bytea;
CREATE UNIQUE INDEX workspace_invitations_token_idx ON workspace_invitations (token_hash) WHERE token_hash IS NOT NULL;
CREATE UNIQUE INDEX workspace_invitations_pending_idx ON workspace_invitations (workspace_id, lower(recipient_email))
  WHERE state = 'PENDING' AND recipient_email IS NOT NULL;

ALTER TABLE workspace_members ADD CONSTRAINT workspace_members_owner_role CHECK (is_workspace_owner = (role = 'OWNER'));
CREATE UNIQUE INDEX workspace_members_one_owner_idx ON workspace_members (workspace_id)
  WHERE is_workspace_owner AND state = 'ACTIVE';
CREATE INDEX api_keys_created_by_idx ON api_keys (workspace_id, created_by);
`)
})
