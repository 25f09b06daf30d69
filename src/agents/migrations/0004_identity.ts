/**
 * Canonical agent identity (spec §9): `agents.id` is the entity UUID; every chain or
 * registry locator of an agent is an `agent_identities` row with its own public UUID.
 * Only REGISTRY_BOUND rows identify an agent; FUNDED/TRANSFERRED rows record addresses
 * merely observed around it and never map to it. `legacy_agent_mappings` holds the
 * UUIDs the legacy-ID batch wrote with `--apply`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE agents ADD COLUMN listed_at timestamptz;

CREATE TABLE agent_identities (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  family text NOT NULL CHECK (family IN ('EVM','SVM','DID','OFFCHAIN')),
  kind text NOT NULL CHECK (kind IN ('REGISTRY_TOKEN','ADDRESS','ASSET','DID','REGISTRY_KEY')),
  -- network key (EVM, SVM); null for DID and off-chain identities
  network text,
  -- EVM registry contract (EIP-55), SVM scheme or off-chain registry; null for addresses and DIDs
  scope text,
  -- token id (decimal), address (EIP-55), base58 locator, DID or registry key
  native_id text NOT NULL,
  -- the canonical locator string (src/identity/Locator.ts)
  locator text NOT NULL,
  binding text NOT NULL CHECK (binding IN ('REGISTRY_BOUND','FUNDED','TRANSFERRED')),
  created_at timestamptz NOT NULL
);
CREATE INDEX agent_identities_locator_idx ON agent_identities (locator);
CREATE INDEX agent_identities_native_idx ON agent_identities (family, network, native_id);
CREATE INDEX agent_identities_agent_idx ON agent_identities (agent_id);

CREATE TABLE legacy_agent_mappings (
  source text NOT NULL,
  legacy_agent_id text NOT NULL,
  agent_id uuid NOT NULL REFERENCES agents(id),
  identity_id uuid NOT NULL REFERENCES agent_identities(id),
  locator text NOT NULL,
  PRIMARY KEY (source, legacy_agent_id)
);
`)
})
