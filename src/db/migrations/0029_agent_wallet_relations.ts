/**
 * Wallet-agent relations (spec §9: "public wallet-agent relation API with
 * explicit relation and proof"; "an address is never mapped to every agent it funded or
 * transferred to").
 *
 * - `agent_wallet_relations`: one explicit relation of an agent to a wallet address (a CAIP-10
 *   account: `network_id` + `address`; EVM addresses in EIP-55 form) — `relation` OWNER,
 *   OPERATOR, PAYOUT or TREASURY — with its proof: `proof_kind` SIGNATURE (the address signed an
 *   identity challenge naming the relation; `proof_reference` is the proven identity's public id),
 *   REGISTRY (the address is `ownerOf` the agent's registry token; the reference is the token's
 *   CAIP-19 id) or ATTESTATION (declared, not produced yet), and `verified_at`. One row per agent,
 *   network, address and relation (a later proof of the same relation replaces the proof). Rows
 *   are written only by proofs (src/agents/identities/Identities.ts), never from FUNDED/TRANSFERRED
 *   observations. Read by Wallets_ListAgentWallets and Wallets_ListWalletAgents.
 * - `agent_identity_challenges.relation`: the relation an ADDRESS challenge asks to prove (its
 *   message names it, so the signature covers it); null for other locator kinds.
 * - Backfill: an ADDRESS identity already proven by an EIP-191 signature becomes an OWNER
 *   relation (the only relation a proof could claim before this migration), with the identity's
 *   id as both the relation's id and its proof reference and `proven_at` as `verified_at`.
 *   ERC721_OWNER proofs stored no signer address, so they cannot be backfilled.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The backfill: EIP-191-proven ADDRESS identities → OWNER relations by SIGNATURE (exported for its test). */
export const backfillRelations = `
INSERT INTO agent_wallet_relations (id, agent_id, network_id, address, relation, proof_kind, proof_reference, verified_at)
SELECT i.id, i.agent_id, n.id, i.native_id, 'OWNER', 'SIGNATURE', i.id::text, i.proven_at
  FROM agent_identities i JOIN networks n ON n.key = i.network
 WHERE i.kind = 'ADDRESS' AND i.binding = 'REGISTRY_BOUND' AND i.proof_method = 'EIP191' AND i.proven_at IS NOT NULL
ON CONFLICT (agent_id, network_id, address, relation) DO NOTHING`

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE agent_wallet_relations (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  network_id uuid NOT NULL REFERENCES networks(id),
  address text NOT NULL CHECK (length(address) BETWEEN 1 AND 128),
  relation text NOT NULL CHECK (relation IN ('OWNER','OPERATOR','PAYOUT','TREASURY')),
  proof_kind text NOT NULL CHECK (proof_kind IN ('SIGNATURE','REGISTRY','ATTESTATION')),
  proof_reference text NOT NULL CHECK (length(proof_reference) BETWEEN 1 AND 500),
  verified_at timestamptz NOT NULL,
  UNIQUE (agent_id, network_id, address, relation)
);
CREATE INDEX agent_wallet_relations_address_idx ON agent_wallet_relations (network_id, lower(address), id);

ALTER TABLE agent_identity_challenges ADD COLUMN relation text
  CHECK (relation IN ('OWNER','OPERATOR','PAYOUT','TREASURY'));
`)
  yield* sql.unsafe(backfillRelations)
})
