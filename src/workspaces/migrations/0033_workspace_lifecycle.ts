/**
 * The workspace lifecycle (spec §2.12, §3 Workspace states ACTIVE, SUSPENDED, CLOSING,
 * CLOSED): when a workspace was suspended (and why), when its closing started, when the
 * grace period ends and when it was closed. None of these is on the wire; they are the
 * workspace's history. `workspace_members_owner_idx` counts the workspaces an account owns
 * (the bound of Workspaces_CreateWorkspace).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE workspaces
  ADD COLUMN created_by uuid REFERENCES accounts(id),
  ADD COLUMN suspended_at timestamptz,
  ADD COLUMN suspension_reason text,
  ADD COLUMN closing_at timestamptz,
  ADD COLUMN closes_at timestamptz,
  ADD COLUMN closed_at timestamptz;

CREATE INDEX workspace_members_owner_idx ON workspace_members (account_id)
  WHERE is_workspace_owner AND state = 'ACTIVE';
`)
})
