/**
 * Bounties that people post, fund, claim, deliver and get paid for (on top of 0056's columns):
 *
 * - `escrow_wallet_id` may be empty until the bounty is funded (it is then the funding wallet);
 * - `payout_address`: the claimant workspace's registered wallet on the bounty's network, taken
 *   at claim: the escrow pays the provider's part to it;
 * - `funding_intent_id` / `approval_intent_id`: the poster's `fund` and ERC-20 `approve`
 *   transaction intents; `payout_intent_id`: the platform's release or refund intent;
 * - `delivery`: the last submitted delivery (message, links, artifacts by sha256 digest);
 *   `rejection_reasons`, `rejected_at`, `disputed_at`, `accepted_at`, `claim_count`;
 * - `bounty_disputes.opened_by_workspace_id`: the side that opened it (poster or claimant).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE bounties ALTER COLUMN escrow_wallet_id DROP NOT NULL;
ALTER TABLE bounties
  ADD COLUMN payout_address text CHECK (payout_address ~ '^0x[0-9a-fA-F]{40}$'),
  ADD COLUMN funding_intent_id uuid,
  ADD COLUMN approval_intent_id uuid,
  ADD COLUMN payout_intent_id uuid,
  ADD COLUMN delivery jsonb,
  ADD COLUMN rejection_reasons jsonb,
  ADD COLUMN rejected_at timestamptz,
  ADD COLUMN disputed_at timestamptz,
  ADD COLUMN accepted_at timestamptz,
  ADD COLUMN claim_count integer NOT NULL DEFAULT 0;
CREATE INDEX bounties_workspace_list_idx ON bounties (workspace_id, created_at DESC, id DESC);
CREATE INDEX bounties_claimant_list_idx ON bounties (claimant_workspace_id, created_at DESC, id DESC)
  WHERE claimant_workspace_id IS NOT NULL;
CREATE INDEX bounties_delivery_due_idx ON bounties (delivery_due_at) WHERE state = 'CLAIMED';
ALTER TABLE bounty_disputes ADD COLUMN opened_by_workspace_id uuid REFERENCES workspaces(id);
`)
})
