/**
 * The MCP subregistry and its upstream sources:
 * - `upstream_sources`: where agents are ingested from (an MCP registry's v0.1 API, an ERC-8004
 *   Identity Registry on a CAIP-2 network, a list of domains serving `/.well-known/agent-card.json`),
 *   with their sync schedule, health and incremental watermark;
 * - `upstream_entries`: one per ingested entry (a server name, a token id, a domain) and the agent it
 *   became; a digest of what was stored (re-ingesting the same content changes nothing), the
 *   validators of the last fetch (`ETag`, `Last-Modified`) and PRESENT / VANISHED (never deleted);
 * - `registry_servers`: the directory's MCP servers in the MCP Registry's `server.json` shape, one
 *   row per (name, version), with the registry's lifecycle status, served by `GET /v0.1/servers`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE upstream_sources (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('MCP_REGISTRY','ERC8004','WELL_KNOWN')),
  display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
  -- MCP_REGISTRY: the registry's base URL
  base_url text,
  -- ERC8004: CAIP-2 network, Identity Registry address (EIP-55) and, for a network that is not configured, an RPC URL
  network_caip2 text,
  registry_address text,
  rpc_url text,
  -- WELL_KNOWN: the domains (or origins) whose /.well-known/agent-card.json is read
  domains jsonb NOT NULL DEFAULT '[]'::jsonb,
  sync_interval_seconds integer NOT NULL CHECK (sync_interval_seconds BETWEEN 60 AND 604800),
  state text NOT NULL CHECK (state IN ('ACTIVE','DEGRADED')),
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  -- MCP_REGISTRY: the last upstream updatedAt seen (RFC 3339); ERC8004: the next block to read
  watermark text,
  next_sync_at timestamptz,
  last_successful_sync_at timestamptz,
  failure_count integer NOT NULL DEFAULT 0,
  last_failure text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((kind = 'MCP_REGISTRY') = (base_url IS NOT NULL)),
  CHECK ((kind = 'ERC8004') = (network_caip2 IS NOT NULL AND registry_address IS NOT NULL))
);
CREATE INDEX upstream_sources_due_idx ON upstream_sources (next_sync_at);

CREATE TABLE upstream_entries (
  source_id uuid NOT NULL REFERENCES upstream_sources(id),
  external_key text NOT NULL,
  agent_id uuid NOT NULL REFERENCES agents(id),
  digest text NOT NULL,
  etag text,
  last_modified text,
  state text NOT NULL CHECK (state IN ('PRESENT','VANISHED')),
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  vanished_at timestamptz,
  PRIMARY KEY (source_id, external_key)
);
CREATE UNIQUE INDEX upstream_entries_agent_idx ON upstream_entries (agent_id);

CREATE TABLE registry_servers (
  name text NOT NULL,
  version text NOT NULL,
  agent_id uuid NOT NULL REFERENCES agents(id),
  -- the server.json (ServerDetail) as served, without our _meta
  server jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('active','deprecated','deleted')),
  status_message text,
  status_changed_at timestamptz NOT NULL,
  published_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  is_latest boolean NOT NULL,
  PRIMARY KEY (name, version)
);
CREATE INDEX registry_servers_agent_idx ON registry_servers (agent_id);
CREATE INDEX registry_servers_updated_idx ON registry_servers (updated_at);
`)
})
