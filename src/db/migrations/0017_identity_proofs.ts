/**
 * Networks named in CAIP-2 and proofs of control of agent identities.
 *
 * - `networks.caip2`: each network's CAIP-2 chain id (`eip155:8453`, `solana:5eykt4…`),
 *   unique, checked against the CAIP-2 syntax (namespace `[-a-z0-9]{3,8}`, reference
 *   `[-_a-zA-Z0-9]{1,32}`). The reference networks are inserted with fixed UUIDs (the same in
 *   every deployment, so an empty production directory can name them; the demo data uses the
 *   same rows), or given their CAIP-2 id where a row of that key exists.
 * - `agent_identities.proven_at` / `proof_method`: a locator whose control was proven by a
 *   signature (Agents_ProveIdentity); null for locators bound otherwise (seed, imports).
 * - `agent_identity_challenges`: the challenges of Agents_CreateIdentityChallenge, with the
 *   normalised locator they are for, the exact message to sign, their expiry and the time they
 *   were used (a challenge proves once). Expired ones are deleted by the `PurgeIdentityChallenges`
 *   cron (src/agents/identities/ChallengePurge.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE networks ADD COLUMN caip2 text UNIQUE
  CHECK (caip2 ~ '^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$');

INSERT INTO networks (id, key, family, display_name, caip2) VALUES
  ('01900004-0000-7000-8000-000000000001', 'base', 'EVM', 'Base', 'eip155:8453'),
  ('01900004-0000-7000-8000-000000000002', 'solana', 'SVM', 'Solana', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'),
  ('01900004-0000-7000-8000-000000000003', 'ethereum', 'EVM', 'Ethereum', 'eip155:1')
ON CONFLICT (key) DO UPDATE SET caip2 = excluded.caip2 WHERE networks.caip2 IS NULL;

ALTER TABLE agent_identities ADD COLUMN proven_at timestamptz;
ALTER TABLE agent_identities ADD COLUMN proof_method text
  CHECK (proof_method IN ('EIP191', 'ERC721_OWNER', 'ED25519', 'DID_KEY', 'DID_WEB'));

CREATE TABLE agent_identity_challenges (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  family text NOT NULL CHECK (family IN ('EVM','SVM','DID')),
  kind text NOT NULL CHECK (kind IN ('REGISTRY_TOKEN','ADDRESS','ASSET','DID')),
  network text,
  scope text,
  native_id text NOT NULL,
  locator text NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX agent_identity_challenges_expires_idx ON agent_identity_challenges (expires_at);
CREATE INDEX agent_identity_challenges_agent_idx ON agent_identity_challenges (agent_id);
`)
})
