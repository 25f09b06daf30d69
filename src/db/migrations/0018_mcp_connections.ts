/**
 * MCP connections that connect.
 *
 * - `mcp_connections.transport`: how the server is reached, `STREAMABLE_HTTP`, `SSE`
 *   (the MCP 2024-11-05 HTTP+SSE transport) or `AUTO` (Streamable HTTP, falling back to
 *   SSE as the MCP specification's backwards-compatibility section describes).
 * - `state` gains `PENDING` (created, its catalog not yet fetched) and `UNREACHABLE`
 *   (the last fetch failed for another reason than authorization; `last_failure` says
 *   why: `timeout`, `network-error`, `target-refused`, `http-<status>`,
 *   `protocol-error`, `response-too-large`). `last_attempted_at`: when the last fetch ended.
 * - `oauth_resource_metadata_url`: the `resource_metadata` URL of the server's last 401
 *   `WWW-Authenticate` challenge (RFC 9728 §5.1), where OAuth discovery starts.
 * - `runtime_tools` may hold the tools of an agent without a runtime configuration (the
 *   tools of its MCP connections): its agent is an agent. Two servers may offer tools of
 *   the same name, so a tool's name and version are unique per source, not per agent.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE mcp_connections
  ADD COLUMN transport text NOT NULL DEFAULT 'STREAMABLE_HTTP' CHECK (transport IN ('STREAMABLE_HTTP','SSE','AUTO')),
  ADD COLUMN last_failure text,
  ADD COLUMN last_attempted_at timestamptz,
  ADD COLUMN oauth_resource_metadata_url text;
ALTER TABLE mcp_connections DROP CONSTRAINT mcp_connections_state_check;
ALTER TABLE mcp_connections ADD CONSTRAINT mcp_connections_state_check
  CHECK (state IN ('PENDING','CONNECTED','AUTH_REQUIRED','UNREACHABLE','DISABLED'));
CREATE UNIQUE INDEX mcp_connections_agent_server_idx ON mcp_connections (agent_id, server_url);

ALTER TABLE runtime_tools DROP CONSTRAINT runtime_tools_agent_id_fkey;
ALTER TABLE runtime_tools ADD CONSTRAINT runtime_tools_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents(id);
ALTER TABLE runtime_tools DROP CONSTRAINT runtime_tools_agent_id_stable_name_version_key;
CREATE UNIQUE INDEX runtime_tools_source_name_version_idx
  ON runtime_tools (agent_id, source_kind, COALESCE(source_reference, ''), stable_name, version);
`)
})
