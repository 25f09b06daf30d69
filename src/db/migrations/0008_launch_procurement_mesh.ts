/**
 * Launch runs and their transaction intents (spec §2.4), procurement intents and the
 * procurement provider configured per agent (spec §2.6), mesh publishers and the
 * per-workspace publisher quota (spec §2.7).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE launch_runs (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  launch_draft_id uuid NOT NULL,
  venue text NOT NULL CHECK (venue IN ('REGISTRY_GENESIS','LAUNCHPAD_FUN','BROKER_CHAIN','EXTERNAL_IMPORT')),
  state text NOT NULL CHECK (state IN ('CREATED','PREPARING','AWAITING_FUNDING','AWAITING_SIGNATURE','EXECUTION_PENDING',
    'SUBMITTED','OBSERVED','CONFIRMED','COMPLETED','RETRYABLE_FAILURE','TERMINAL_FAILURE','MANUAL_REVIEW','CANCELLED')),
  transaction_intent_id uuid,
  provider_reference text,
  expected_asset_locator text,
  observed_asset_id text,
  failure_code text,
  failure_summary text,
  attempt_count integer NOT NULL DEFAULT 1 CHECK (attempt_count >= 0),
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  -- spec §2.4 steps, stored in their wire shape (camelCase keys, date-times as text)
  steps jsonb NOT NULL DEFAULT '[]'::jsonb,
  requested_at timestamptz NOT NULL,
  submitted_at timestamptz,
  observed_at timestamptz,
  confirmed_at timestamptz,
  completed_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX launch_runs_workspace_idx ON launch_runs (workspace_id);

-- one intent per attempt of a run: a second materialization of one attempt cannot exist
CREATE TABLE launch_transaction_intents (
  id uuid PRIMARY KEY,
  launch_run_id uuid NOT NULL REFERENCES launch_runs(id),
  attempt integer NOT NULL CHECK (attempt > 0),
  state text NOT NULL CHECK (state IN ('AWAITING_SIGNATURE','SIGNED','FAILED','SUPERSEDED')),
  created_at timestamptz NOT NULL,
  UNIQUE (launch_run_id, attempt)
);

CREATE TABLE procurement_providers (
  agent_id uuid PRIMARY KEY REFERENCES agents(id),
  provider text NOT NULL,
  configured_at timestamptz NOT NULL
);

CREATE TABLE procurement_intents (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  agent_id uuid NOT NULL REFERENCES agents(id),
  state text NOT NULL,
  amount_minor numeric(78,0) NOT NULL CHECK (amount_minor >= 0),
  currency text NOT NULL,
  purpose text NOT NULL,
  merchant text,
  merchant_url text,
  expires_at timestamptz NOT NULL,
  policy_version integer NOT NULL,
  provider text NOT NULL,
  provider_request_id text,
  -- spec §2.6 instrument and continuation, in their wire shape
  instrument jsonb,
  continuation jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX procurement_intents_agent_idx ON procurement_intents (agent_id);

CREATE TABLE mesh_publishers (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  entity_id uuid REFERENCES agents(id),
  public_key_id uuid NOT NULL UNIQUE,
  public_key bytea NOT NULL CHECK (length(public_key) = 32),
  -- a key is registered once, whatever became of its publisher
  public_key_fingerprint text NOT NULL UNIQUE,
  state text NOT NULL CHECK (state IN ('PENDING','ACTIVE','SUSPENDED','REVOKED')),
  allowed_signal_types jsonb NOT NULL,
  rate_per_minute integer NOT NULL CHECK (rate_per_minute BETWEEN 1 AND 10000),
  rate_burst integer NOT NULL CHECK (rate_burst BETWEEN 1 AND 10000),
  created_at timestamptz NOT NULL
);
CREATE INDEX mesh_publishers_workspace_idx ON mesh_publishers (workspace_id);

-- a workspace without a row has the default quota (src/mesh/Mesh.ts)
CREATE TABLE mesh_publisher_quotas (
  workspace_id uuid PRIMARY KEY REFERENCES workspaces(id),
  max_publishers integer NOT NULL CHECK (max_publishers >= 0)
);
`)
})
