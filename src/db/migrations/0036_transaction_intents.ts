/**
 * Chain transactions (layers/TransactionIntents.ts): every intent the service prepares, who
 * signs it and what it became; the block watcher's cursor per network and the recent canonical
 * blocks it saw (by number and hash, so a reorg is found where a parent hash no longer matches).
 * Agent activity items get a dedupe key (layers/Activity.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE transaction_intents (
  id uuid PRIMARY KEY,
  network text NOT NULL,
  workspace_id uuid REFERENCES workspaces(id),
  -- who may read and submit an OWNER intent
  owner_account_id uuid REFERENCES accounts(id),
  state text NOT NULL CHECK (state IN ('PREPARED','AWAITING_SIGNATURE','SUBMITTED','OBSERVED','CONFIRMED','FAILED','REPLACED','EXPIRED')),
  signer text NOT NULL CHECK (signer IN ('OWNER','PLATFORM')),
  -- what the intent is for: the area's outcome handler of this kind is called on each change
  purpose_kind text NOT NULL,
  purpose_id uuid NOT NULL,
  from_address text NOT NULL CHECK (from_address ~ '^0x[0-9a-fA-F]{40}$'),
  to_address text NOT NULL CHECK (to_address ~ '^0x[0-9a-fA-F]{40}$'),
  data text NOT NULL CHECK (data ~ '^0x([0-9a-f]{2})*$'),
  call jsonb NOT NULL,
  value numeric(78,0) NOT NULL CHECK (value >= 0),
  gas_limit numeric(78,0) NOT NULL CHECK (gas_limit >= 0),
  max_fee_per_gas numeric(78,0) NOT NULL CHECK (max_fee_per_gas >= 0),
  max_priority_fee_per_gas numeric(78,0) NOT NULL CHECK (max_priority_fee_per_gas >= 0),
  nonce bigint CHECK (nonce >= 0),
  typed_data jsonb,
  transaction_hash text CHECK (transaction_hash ~ '^0x[0-9a-f]{64}$'),
  block_number numeric(78,0),
  block_hash text,
  failure_code text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  submitted_at timestamptz,
  observed_at timestamptz,
  confirmed_at timestamptz,
  updated_at timestamptz NOT NULL,
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0)
);
CREATE INDEX transaction_intents_purpose_idx ON transaction_intents (purpose_kind, purpose_id);
CREATE UNIQUE INDEX transaction_intents_hash_idx ON transaction_intents (network, transaction_hash) WHERE transaction_hash IS NOT NULL;
-- what the watcher follows: broadcast and observed intents of each network
CREATE INDEX transaction_intents_watch_idx ON transaction_intents (network, state) WHERE state IN ('SUBMITTED','OBSERVED');

CREATE TABLE chain_cursors (
  network text PRIMARY KEY,
  block_number numeric(78,0) NOT NULL,
  block_hash text NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE chain_blocks (
  network text NOT NULL,
  block_number numeric(78,0) NOT NULL,
  block_hash text NOT NULL,
  parent_hash text NOT NULL,
  seen_at timestamptz NOT NULL,
  PRIMARY KEY (network, block_number)
);

-- an activity item is recorded once per agent and dedupe key (layers/Activity.ts); items written before have none
ALTER TABLE agent_activity ADD COLUMN dedupe_key text;
CREATE UNIQUE INDEX agent_activity_dedupe_idx ON agent_activity (agent_id, dedupe_key);
`)
})
