/**
 * Admin operations (spec §2.13, §2.18, §4.2): token operations, bounties
 * with their escrow and disputes, dispute resolution commands (with the audit events
 * and escrow transaction intents they create), partner job sources and the jobs
 * their feeds deliver.
 *
 * Amounts are NUMERIC(78,0) (units); versions bigint (optimistic concurrency).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE token_operations (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('BUYBACK', 'BURN', 'REWARD', 'ALLOCATION', 'DISTRIBUTION', 'COMMISSION_PAYOUT',
    'TREASURY_TRANSFER', 'LIQUIDITY')),
  state text NOT NULL CHECK (state IN ('PLANNED', 'APPROVAL_REQUIRED', 'APPROVED', 'BUILD_PENDING', 'SUBMITTED', 'CONFIRMED',
    'RECONCILED', 'REVERSED', 'CANCELLED', 'FAILED', 'MANUAL_REVIEW')),
  asset_id uuid NOT NULL REFERENCES assets(id),
  units numeric(78,0) NOT NULL CHECK (units >= 0),
  quote_asset_id uuid REFERENCES assets(id),
  quote_units numeric(78,0) CHECK (quote_units >= 0),
  source text,
  destination text,
  transaction_intent_id uuid,
  journal_entry_id uuid,
  evidence_ref text,
  policy_version integer NOT NULL CHECK (policy_version > 0),
  public_summary text NOT NULL,
  failure_code text,
  requested_at timestamptz NOT NULL,
  approved_at timestamptz,
  reconciled_at timestamptz,
  version bigint NOT NULL CHECK (version > 0)
);
CREATE INDEX token_operations_recent_idx ON token_operations (requested_at DESC, id DESC);

CREATE TABLE bounties (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  title text NOT NULL,
  state text NOT NULL CHECK (state IN ('OPEN', 'IN_PROGRESS', 'DISPUTED', 'RELEASE_PENDING', 'REFUND_PENDING', 'RELEASED',
    'REFUNDED', 'CANCELLED')),
  asset_id uuid NOT NULL REFERENCES assets(id),
  escrow_units numeric(78,0) NOT NULL CHECK (escrow_units >= 0),
  escrow_network text NOT NULL,
  escrow_contract_address text NOT NULL CHECK (escrow_contract_address ~ '^0x[0-9a-fA-F]{40}$'),
  escrow_wallet_id uuid NOT NULL,
  version bigint NOT NULL CHECK (version > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE bounty_disputes (
  id uuid PRIMARY KEY,
  bounty_id uuid NOT NULL REFERENCES bounties(id),
  state text NOT NULL CHECK (state IN ('OPEN', 'RESOLVED', 'WITHDRAWN')),
  opened_reason text NOT NULL,
  version bigint NOT NULL CHECK (version > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  resolved_at timestamptz
);
CREATE INDEX bounty_disputes_bounty_idx ON bounty_disputes (bounty_id);

-- chain transactions prepared by admin commands (signed and submitted elsewhere)
CREATE TABLE escrow_transaction_intents (
  id uuid PRIMARY KEY,
  purpose text NOT NULL,
  network text NOT NULL,
  contract_address text NOT NULL,
  wallet_id uuid NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL CHECK (state IN ('PREPARED', 'SUBMITTED', 'CONFIRMED', 'FAILED')),
  created_at timestamptz NOT NULL
);

-- who did what to which resource, for every applied administrative mutation
CREATE TABLE admin_audit_events (
  id uuid PRIMARY KEY,
  actor_account_id uuid NOT NULL REFERENCES accounts(id),
  action text NOT NULL,
  subject_kind text NOT NULL,
  subject_id uuid NOT NULL,
  reason text NOT NULL,
  detail jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX admin_audit_events_subject_idx ON admin_audit_events (subject_kind, subject_id, created_at);

CREATE TABLE dispute_resolutions (
  id uuid PRIMARY KEY,
  dispute_id uuid NOT NULL UNIQUE REFERENCES bounty_disputes(id),
  bounty_id uuid NOT NULL REFERENCES bounties(id),
  command_hash text NOT NULL,
  decision_digest text NOT NULL,
  resolution text NOT NULL CHECK (resolution IN ('RELEASE', 'REFUND', 'SPLIT')),
  units_to_provider numeric(78,0) NOT NULL CHECK (units_to_provider >= 0),
  units_to_client numeric(78,0) NOT NULL CHECK (units_to_client >= 0),
  state text NOT NULL CHECK (state IN ('RELEASE_PENDING', 'REFUND_PENDING')),
  audit_event_id uuid NOT NULL REFERENCES admin_audit_events(id),
  transaction_intent_id uuid NOT NULL REFERENCES escrow_transaction_intents(id),
  created_at timestamptz NOT NULL
);

CREATE TABLE partner_job_sources (
  id uuid PRIMARY KEY,
  code text NOT NULL UNIQUE CHECK (length(code) BETWEEN 2 AND 100),
  display_name text NOT NULL CHECK (length(display_name) <= 200),
  website_url text NOT NULL CHECK (length(website_url) <= 2000),
  endpoint_url text NOT NULL CHECK (length(endpoint_url) <= 2000),
  adapter_version text NOT NULL CHECK (length(adapter_version) <= 100),
  response_schema_version integer NOT NULL CHECK (response_schema_version = 1),
  poll_interval_seconds integer NOT NULL CHECK (poll_interval_seconds BETWEEN 60 AND 86400),
  request_timeout_ms integer NOT NULL CHECK (request_timeout_ms BETWEEN 1000 AND 60000),
  state text NOT NULL CHECK (state IN ('ACTIVE', 'DEGRADED', 'PAUSED', 'DISABLED')),
  next_sync_at timestamptz,
  last_successful_sync_at timestamptz,
  failure_count integer NOT NULL DEFAULT 0 CHECK (failure_count >= 0),
  last_failure text,
  version bigint NOT NULL CHECK (version > 0),
  configuration_version bigint NOT NULL CHECK (configuration_version > 0),
  updated_at timestamptz NOT NULL
);
CREATE INDEX partner_job_sources_due_idx ON partner_job_sources (next_sync_at) WHERE state IN ('ACTIVE', 'DEGRADED');

CREATE TABLE partner_jobs (
  source_id uuid NOT NULL REFERENCES partner_job_sources(id),
  external_id text NOT NULL,
  title text NOT NULL,
  url text NOT NULL,
  description text,
  posted_at timestamptz NOT NULL,
  closes_at timestamptz,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  PRIMARY KEY (source_id, external_id)
);
`)
})
