/**
 * The audit trail (layers/Audit.ts): one row per sensitive action, written in the
 * action's transaction. `workspace_id` null for account-level actions; the index serves
 * Workspaces_ListAuditEvents (newest first, keyset on created_at, id).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE audit_events (
  id uuid PRIMARY KEY,
  workspace_id uuid REFERENCES workspaces(id),
  actor_account_id uuid REFERENCES accounts(id),
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  client_address text,
  request_id uuid,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_events_workspace_idx ON audit_events (workspace_id, created_at DESC, id DESC);
CREATE INDEX audit_events_actor_idx ON audit_events (actor_account_id, created_at DESC);
`)
})
