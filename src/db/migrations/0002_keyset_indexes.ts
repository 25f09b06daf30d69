/**
 * Indexes that serve the keyset pages in their ORDER BY (spec §2.2 cursor pages):
 * an index scan per page instead of sorting every row of the account or workspace.
 *
 * - Agents_ListFavoriteAgents: `WHERE account_id = $1 ORDER BY created_at DESC, agent_id DESC`.
 * - Workspaces_GetWorkspace members: `WHERE workspace_id = $1 ORDER BY created_at, account_id`.
 * - Invitations (`ORDER BY created_at, id`) are served by `workspace_invitations_ws_idx` of 0001.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE INDEX favorite_agents_account_created_idx ON favorite_agents (account_id, created_at DESC, agent_id DESC);
CREATE INDEX workspace_members_ws_created_idx ON workspace_members (workspace_id, created_at, account_id);
`)
})
