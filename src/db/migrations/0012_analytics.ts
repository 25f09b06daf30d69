/**
 * Product analytics, analytics exports and public agent activity (spec §2.17, §2.21,
 * §4.3).
 *
 * - `agents.workspace_id`: the workspace that operates the agent (also added, with the
 *   same meaning, by the runtime migration; hence `IF NOT EXISTS`). Exports of an
 *   agent's analytics are visible to that workspace's members only.
 * - `product_events`: ingested product events, one row per `event_id` (the client's
 *   uuid). `digest` is the SHA-256 of the event's canonical content, so a resent event
 *   is told apart from a different one under the same id (duplicate vs conflict).
 * - `analytics_exports`: an export of one agent's data over a date range; the built
 *   file is kept in `file_content` (bytea: the same on PGlite and PostgreSQL, and no
 *   data directory to share between server processes).
 * - `agent_activity`: the public activity feed of an agent (§2.21), newest first.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE agents ADD COLUMN IF NOT EXISTS workspace_id uuid REFERENCES workspaces(id);

CREATE TABLE product_events (
  event_id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  name text NOT NULL,
  category text NOT NULL,
  occurred_at timestamptz NOT NULL,
  properties jsonb NOT NULL,
  -- the token's subject (an opaque visitor id), never an account id
  subject text NOT NULL,
  digest text NOT NULL,
  receipt_id uuid NOT NULL,
  received_at timestamptz NOT NULL
);
CREATE INDEX product_events_agent_idx ON product_events (agent_id, occurred_at);

CREATE TABLE analytics_exports (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  requested_by uuid NOT NULL REFERENCES accounts(id),
  export_type text NOT NULL CHECK (export_type IN ('TRAFFIC','PERFORMANCE','REVENUE','RANKING','TRUST','SERVICE')),
  range_from date NOT NULL,
  range_to date NOT NULL CHECK (range_from <= range_to),
  format text NOT NULL CHECK (format IN ('CSV','JSONL')),
  state text NOT NULL CHECK (state IN ('REQUESTED','QUEUED','BUILDING','AVAILABLE','EXPIRED','FAILED','CANCELLED')),
  row_count bigint,
  file_content bytea,
  error_code text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX analytics_exports_agent_idx ON analytics_exports (agent_id, created_at);

CREATE TABLE agent_activity (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  activity_key text NOT NULL,
  event_version integer NOT NULL CHECK (event_version > 0),
  summary text,
  source_kind text NOT NULL CHECK (source_kind IN ('DOMAIN_EVENT','CHAIN_OBSERVATION','PROVIDER_OBSERVATION','PRODUCT_EVIDENCE')),
  network_id uuid REFERENCES networks(id),
  transaction_reference text,
  explorer_url text,
  evidence_public_id uuid,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX agent_activity_feed_idx ON agent_activity (agent_id, occurred_at DESC, id DESC);
`)
})
