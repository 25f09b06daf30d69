/**
 * The agent runtime's tables (spec §2.15, §2.16, §2.19, §2.20).
 *
 * - `agents.workspace_id`: the workspace that operates the agent (its runtime, MCP
 *   connections, conversations, analytics); null for a directory-only agent. Runtime
 *   and MCP operations are visible to the active members of this workspace only.
 * - `agent_runtime_configs`: an agent's runtime configuration (provider, model,
 *   instructions); no row = "no runtime configured" (422 configuration-missing).
 * - `runtime_tools`: the tools of an agent's runtime, in the wire shape of §2.15.
 * - `mcp_connections`: an agent's MCP servers. The `oauth_*` columns are the
 *   authorization server's metadata; null `oauth_authorization_endpoint` = none
 *   configured. `state`: CONNECTED, AUTH_REQUIRED or DISABLED.
 * - `mcp_catalogs`: the last observed catalog of a connection (§2.16), at most one.
 * - `mcp_oauth_flows`: an OAuth 2.1 authorization in progress: the PKCE verifier and
 *   the `state` are kept server-side until `expires_at` (the callback consumes them).
 * - `conversations`: a chat with an agent; `kind` PLAYGROUND (the operator's test
 *   console) or CHAT.
 * - `runs`: one execution of an agent (§2.20 Run; §2.19 adds `retention_expires_at`,
 *   `data_cleared_at`); `state` is a run state of §3; `is_playground` marks
 *   playground runs, whose data may be cleared.
 * - `messages`: a conversation's messages (§2.20 Message); `ordinal` increases by one
 *   per message within a conversation; a message belongs to the run that made it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE agents ADD COLUMN IF NOT EXISTS workspace_id uuid REFERENCES workspaces(id);

CREATE TABLE agent_runtime_configs (
  agent_id uuid PRIMARY KEY REFERENCES agents(id),
  provider text NOT NULL,
  model text NOT NULL,
  instructions text NOT NULL,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE runtime_tools (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agent_runtime_configs(agent_id),
  stable_name text NOT NULL,
  version integer NOT NULL CHECK (version > 0),
  description text NOT NULL,
  input_schema jsonb NOT NULL,
  output_schema jsonb,
  risk_class text NOT NULL,
  executor_kind text NOT NULL,
  execution_class text NOT NULL,
  source_kind text NOT NULL,
  source_reference text,
  implementation_version text NOT NULL,
  available boolean NOT NULL,
  unavailable_at timestamptz,
  state text NOT NULL,
  grant_state text,
  definition_digest text,
  remote_definition jsonb,
  created_at timestamptz NOT NULL,
  UNIQUE (agent_id, stable_name, version)
);

CREATE TABLE mcp_connections (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  name text NOT NULL,
  server_url text NOT NULL,
  state text NOT NULL CHECK (state IN ('CONNECTED','AUTH_REQUIRED','DISABLED')),
  oauth_issuer text,
  oauth_authorization_endpoint text,
  oauth_client_id text,
  oauth_redirect_uri text,
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((oauth_authorization_endpoint IS NULL) = (oauth_client_id IS NULL)
     AND (oauth_authorization_endpoint IS NULL) = (oauth_redirect_uri IS NULL))
);
CREATE INDEX mcp_connections_agent_idx ON mcp_connections (agent_id);

CREATE TABLE mcp_catalogs (
  connection_id uuid PRIMARY KEY REFERENCES mcp_connections(id),
  protocol_version text NOT NULL,
  server_identity jsonb NOT NULL,
  capabilities jsonb NOT NULL,
  tools jsonb NOT NULL,
  resources jsonb NOT NULL,
  resource_templates jsonb NOT NULL,
  prompts jsonb NOT NULL,
  cache_metadata jsonb NOT NULL,
  observed_at timestamptz NOT NULL,
  expires_at timestamptz
);

CREATE TABLE mcp_oauth_flows (
  id uuid PRIMARY KEY,
  connection_id uuid NOT NULL REFERENCES mcp_connections(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  state text NOT NULL UNIQUE,
  code_verifier text NOT NULL,
  scopes text[] NOT NULL,
  redirect_uri text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX mcp_oauth_flows_connection_idx ON mcp_oauth_flows (connection_id);

CREATE TABLE conversations (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  kind text NOT NULL CHECK (kind IN ('CHAT','PLAYGROUND')),
  title text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX conversations_agent_idx ON conversations (agent_id, created_at DESC);

CREATE TABLE runs (
  id uuid PRIMARY KEY,
  conversation_id uuid REFERENCES conversations(id),
  agent_id uuid NOT NULL REFERENCES agents(id),
  trigger_type text NOT NULL,
  state text NOT NULL CHECK (state IN ('CREATED','QUEUED','PREPARING','RUNNING','INPUT_REQUIRED','APPROVAL_REQUIRED',
                                       'SETTLING','SUCCEEDED','FAILED','CANCELLED','TIMED_OUT')),
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  failure_code text,
  is_playground boolean NOT NULL DEFAULT false,
  retention_expires_at timestamptz NOT NULL,
  data_cleared_at timestamptz,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  completed_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX runs_conversation_idx ON runs (conversation_id, created_at);

CREATE TABLE messages (
  id uuid PRIMARY KEY,
  conversation_id uuid NOT NULL REFERENCES conversations(id),
  ordinal bigint NOT NULL CHECK (ordinal > 0),
  role text NOT NULL,
  state text NOT NULL CHECK (state IN ('PENDING','STREAMING','COMPLETE','FAILED','CANCELLED','REDACTED')),
  content_text text,
  content_parts jsonb NOT NULL DEFAULT '[]'::jsonb,
  parent_message_id uuid REFERENCES messages(id),
  run_id uuid REFERENCES runs(id),
  created_at timestamptz NOT NULL,
  completed_at timestamptz,
  UNIQUE (conversation_id, ordinal)
);
`)
})
