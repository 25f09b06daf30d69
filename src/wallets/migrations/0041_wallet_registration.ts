/**
 * Wallets registered by proof and their enforced policies (spec §2.8, §2.14, §4.3):
 *
 * - `wallets.workspace_id`: the workspace a wallet was registered for (Wallets_RegisterWallet);
 *   null for wallets recorded before registration existed. `proven_at` / `proof_method`: when and
 *   how control of the address was proven (`SIWE`: an EIP-4361 message signed by the address).
 *   `wallets_workspace_list_idx` is the keyset of Wallets_ListWallets (newest first).
 * - `wallet_siwe_nonces`: every nonce a sign-in message carried, by address; a nonce proves once
 *   (the primary key). Rows past `expires_at` are useless (the message's age bound refuses them
 *   anyway) and may be deleted.
 * - `wallet_policies.rules`: what the platform's signer enforces for a COMPLETE policy (allowed
 *   networks, contracts, methods; per-transaction and per-day limits as decimal strings);
 *   `provider`: the custody provider adapter that carries the policy (`signer`: the built-in one).
 *   `wallet_policies_enforced_idx` finds the latest COMPLETE policy of a wallet.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE wallets ADD COLUMN workspace_id uuid REFERENCES workspaces(id);
ALTER TABLE wallets ADD COLUMN proven_at timestamptz;
ALTER TABLE wallets ADD COLUMN proof_method text CHECK (proof_method IN ('SIWE'));
CREATE INDEX wallets_workspace_list_idx ON wallets (workspace_id, created_at DESC, id DESC);
CREATE INDEX wallets_address_idx ON wallets (lower(address));

CREATE TABLE wallet_siwe_nonces (
  address text NOT NULL,
  nonce text NOT NULL,
  used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (address, nonce)
);

ALTER TABLE wallet_policies ADD COLUMN rules jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE wallet_policies ADD COLUMN provider text NOT NULL DEFAULT 'signer' CHECK (length(provider) <= 100);
CREATE INDEX wallet_policies_enforced_idx ON wallet_policies (wallet_id, completed_at DESC) WHERE state = 'COMPLETE';
`)
})
