/**
 * Initial schema. One SQL dialect: PostgreSQL (server or embedded PGlite).
 * Public IDs are UUID primary keys; amounts are NUMERIC(78,0); versions bigint.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
-- Wire form of a timestamp (spec §2.1 date-time): UTC, millisecond precision, ending in Z.
CREATE FUNCTION api_ts(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  display_name text NOT NULL,
  password_hash text NOT NULL,
  is_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  token_hash bytea NOT NULL UNIQUE,
  csrf_hash bytea NOT NULL,
  user_agent text,
  created_at timestamptz NOT NULL,
  authenticated_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_account_idx ON sessions (account_id);

CREATE TABLE workspaces (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  state text NOT NULL CHECK (state IN ('ACTIVE','SUSPENDED','CLOSING','CLOSED')),
  locked boolean NOT NULL DEFAULT false,
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE workspace_members (
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  role text NOT NULL CHECK (role IN ('OWNER','ADMIN','EDITOR','OPERATOR','ANALYST','BILLING','VIEWER')),
  state text NOT NULL CHECK (state IN ('INVITED','ACTIVE','REVOKED')),
  is_workspace_owner boolean NOT NULL DEFAULT false,
  is_default boolean NOT NULL DEFAULT false,
  accepted_at timestamptz,
  revoked_at timestamptz,
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, account_id)
);
CREATE INDEX workspace_members_account_idx ON workspace_members (account_id);

CREATE TABLE workspace_invitations (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  recipient_email text,
  role text NOT NULL,
  state text NOT NULL CHECK (state IN ('PENDING','ACCEPTED','EXPIRED','REVOKED')),
  invited_by uuid NOT NULL REFERENCES accounts(id),
  accepted_by uuid REFERENCES accounts(id),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz,
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  created_at timestamptz NOT NULL
);
CREATE INDEX workspace_invitations_ws_idx ON workspace_invitations (workspace_id, created_at, id);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  prefix text NOT NULL UNIQUE,
  verifier bytea NOT NULL,
  environment text NOT NULL,
  scopes text[] NOT NULL,
  state text NOT NULL CHECK (state IN ('ACTIVE','PAUSED','REVOKED')),
  expires_at timestamptz,
  created_at timestamptz NOT NULL
);

CREATE TABLE idempotency_records (
  principal text NOT NULL,
  operation_id text NOT NULL,
  idempotency_key uuid NOT NULL,
  fingerprint text NOT NULL,
  status integer NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (principal, operation_id, idempotency_key)
);
CREATE INDEX idempotency_records_created_idx ON idempotency_records (created_at);

CREATE TABLE networks (
  id uuid PRIMARY KEY,
  key text NOT NULL UNIQUE,
  family text NOT NULL,
  display_name text NOT NULL
);

CREATE TABLE assets (
  id uuid PRIMARY KEY,
  network_id uuid NOT NULL REFERENCES networks(id),
  symbol text,
  decimals integer NOT NULL CHECK (decimals BETWEEN 0 AND 255)
);

CREATE TABLE agents (
  id uuid PRIMARY KEY,
  canonical_slug text NOT NULL UNIQUE CHECK (length(canonical_slug) > 0),
  name text NOT NULL,
  rank numeric(78,0),
  tagline text,
  description text NOT NULL,
  star_count numeric(78,0) NOT NULL DEFAULT 0,
  verification_state text NOT NULL
);

CREATE TABLE favorite_agents (
  account_id uuid NOT NULL REFERENCES accounts(id),
  agent_id uuid NOT NULL REFERENCES agents(id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, agent_id)
);

CREATE TABLE services (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  agent_id uuid REFERENCES agents(id),
  name text NOT NULL
);

CREATE TABLE service_offers (
  id uuid PRIMARY KEY,
  service_id uuid NOT NULL REFERENCES services(id),
  state text NOT NULL CHECK (state IN ('DRAFT','REVIEW','PUBLISHED','PAUSED','SUSPENDED','RETIRED')),
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  title text NOT NULL,
  slug text NOT NULL,
  description text NOT NULL,
  pricing_model text NOT NULL,
  fulfillment_policy_version integer NOT NULL,
  published_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE service_offer_terms (
  id uuid PRIMARY KEY,
  offer_id uuid NOT NULL REFERENCES service_offers(id),
  revision integer NOT NULL CHECK (revision > 0),
  terms_markdown text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (offer_id, revision)
);

CREATE TABLE service_offer_prices (
  id uuid PRIMARY KEY,
  offer_id uuid NOT NULL REFERENCES service_offers(id),
  version integer NOT NULL,
  network_id uuid REFERENCES networks(id),
  asset_id uuid NOT NULL REFERENCES assets(id),
  units numeric(78,0) NOT NULL CHECK (units >= 0),
  effective_from timestamptz NOT NULL,
  effective_until timestamptz,
  x402_resource_template text
);
CREATE INDEX service_offer_prices_offer_idx ON service_offer_prices (offer_id);

CREATE TABLE orders (
  id uuid PRIMARY KEY,
  order_number text NOT NULL UNIQUE,
  state text NOT NULL,
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  agent_id uuid REFERENCES agents(id),
  product_code text NOT NULL,
  product_name text NOT NULL,
  network_id uuid NOT NULL REFERENCES networks(id),
  asset_id uuid NOT NULL REFERENCES assets(id),
  subtotal_units numeric(78,0) NOT NULL CHECK (subtotal_units >= 0),
  discount_units numeric(78,0) NOT NULL CHECK (discount_units >= 0),
  total_units numeric(78,0) NOT NULL CHECK (total_units >= 0),
  holder_benefit jsonb,
  terms_version integer NOT NULL,
  policy_version integer NOT NULL,
  paid_at timestamptz,
  activated_at timestamptz,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX orders_workspace_idx ON orders (workspace_id, created_at DESC);

CREATE TABLE payments (
  id uuid PRIMARY KEY,
  order_id uuid NOT NULL REFERENCES orders(id),
  rail text NOT NULL,
  state text NOT NULL,
  units numeric(78,0) NOT NULL CHECK (units >= 0),
  transaction_intent_id uuid,
  transaction_hash text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX payments_order_idx ON payments (order_id);

CREATE TABLE entitlements (
  id uuid PRIMARY KEY,
  order_id uuid NOT NULL REFERENCES orders(id),
  code text NOT NULL,
  state text NOT NULL,
  source text NOT NULL,
  effective_from timestamptz NOT NULL,
  effective_until timestamptz,
  policy_version integer NOT NULL
);
CREATE INDEX entitlements_order_idx ON entitlements (order_id);

CREATE TABLE protocols (
  key text PRIMARY KEY,
  name text NOT NULL,
  status text NOT NULL,
  features text[] NOT NULL,
  position integer NOT NULL
);
`)
})
