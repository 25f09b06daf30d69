/**
 * Agent imports: `agent_imports` records each import of a public
 * description into an agent (QUEUED → RUNNING → SUCCEEDED | FAILED with `reasons`), and
 * what a SUCCEEDED import stored, each replaced by the agent's next import of its kind:
 * - `agent_a2a_cards`: the agent's A2A Agent Card as published (the body's exact text, so
 *   its JWS `signatures` stay verifiable) with its provider; `agent_skills` and
 *   `agent_interfaces` from it, in the card's order;
 * - `agent_registration_endpoints`: the `endpoints[]` of its ERC-8004 registration file;
 * - `agent_identity_claims`: the file's `registrations[]` as identity claims (EVM,
 *   REGISTRY_TOKEN, network by CAIP-2, registry contract EIP-55, token id decimal),
 *   UNPROVEN until the agent proves control of the token (Agents_ProveIdentity).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE agent_imports (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  kind text NOT NULL CHECK (kind IN ('A2A_AGENT_CARD','MCP_SERVER','ERC8004_REGISTRATION')),
  url text NOT NULL,
  state text NOT NULL CHECK (state IN ('QUEUED','RUNNING','SUCCEEDED','FAILED')),
  -- [{code, detail, pointer}] once FAILED
  reasons jsonb NOT NULL DEFAULT '[]',
  -- what a SUCCEEDED import stored (counts), AgentImportResult
  result jsonb,
  requested_by uuid NOT NULL REFERENCES accounts(id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX agent_imports_agent_idx ON agent_imports (agent_id, kind, finished_at);

CREATE TABLE agent_a2a_cards (
  agent_id uuid PRIMARY KEY REFERENCES agents(id),
  import_id uuid NOT NULL REFERENCES agent_imports(id),
  -- the card as published: the exact text fetched, and its parsed form
  card_text text NOT NULL,
  card jsonb NOT NULL,
  provider_organization text,
  provider_url text,
  fetched_at timestamptz NOT NULL
);

CREATE TABLE agent_skills (
  agent_id uuid NOT NULL REFERENCES agents(id),
  position integer NOT NULL,
  import_id uuid NOT NULL REFERENCES agent_imports(id),
  skill_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  tags jsonb NOT NULL,
  examples jsonb NOT NULL,
  input_modes jsonb NOT NULL,
  output_modes jsonb NOT NULL,
  PRIMARY KEY (agent_id, position)
);

CREATE TABLE agent_interfaces (
  agent_id uuid NOT NULL REFERENCES agents(id),
  position integer NOT NULL,
  import_id uuid NOT NULL REFERENCES agent_imports(id),
  url text NOT NULL,
  protocol_binding text NOT NULL,
  protocol_version text,
  PRIMARY KEY (agent_id, position)
);

CREATE TABLE agent_registration_endpoints (
  agent_id uuid NOT NULL REFERENCES agents(id),
  position integer NOT NULL,
  import_id uuid NOT NULL REFERENCES agent_imports(id),
  name text NOT NULL,
  endpoint text NOT NULL,
  version text,
  PRIMARY KEY (agent_id, position)
);

CREATE TABLE agent_identity_claims (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  import_id uuid NOT NULL REFERENCES agent_imports(id),
  family text NOT NULL CHECK (family = 'EVM'),
  kind text NOT NULL CHECK (kind = 'REGISTRY_TOKEN'),
  -- CAIP-2 chain id, e.g. eip155:8453
  network_caip2 text NOT NULL,
  -- the registry contract, EIP-55
  registry text NOT NULL,
  -- the token id (agentId), decimal
  native_id text NOT NULL,
  proof_state text NOT NULL CHECK (proof_state IN ('UNPROVEN','PROVEN')),
  created_at timestamptz NOT NULL,
  UNIQUE (agent_id, network_caip2, registry, native_id)
);
CREATE INDEX agent_identity_claims_locator_idx ON agent_identity_claims (network_caip2, registry, native_id);
`)
})
