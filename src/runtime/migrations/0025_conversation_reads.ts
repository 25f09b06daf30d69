/**
 * Reading conversations (Runtime_ListConversations, Runtime_ListMessages,
 * Runtime_GetRun) on the tables of migrations 0010, 0011 and 0021:
 *
 * - an agent's conversations, most recently updated first with the id as tiebreak (the
 *   keyset order of Runtime_ListConversations as an OWNER or ADMIN sees it), and the
 *   same per author (what every other member sees: only their own);
 * - a conversation's messages by ordinal and its run steps by ordinal are already
 *   indexed by their unique keys; a run's tool calls by `run_tool_calls_run_idx`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE INDEX conversations_agent_updated_idx ON conversations (agent_id, updated_at DESC, id DESC);
CREATE INDEX conversations_agent_author_updated_idx ON conversations (agent_id, account_id, updated_at DESC, id DESC);
`)
})
