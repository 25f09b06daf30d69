/**
 * Bounties from posting to payout: what a poster asks for (description, acceptance criteria,
 * required skills and protocols, deadline), who posted it, its claim and delivery, and the
 * states of the whole lifecycle:
 *
 * FUNDING_PENDING (created, escrow not funded) → OPEN (funded) → CLAIMED (one claim at a time)
 * → SUBMITTED (delivery) → RELEASE_PENDING (accepted: escrow release intent) → RELEASED; or
 * REJECTED (the claimant may dispute within the window) → DISPUTED → the admin resolution;
 * CANCELLED (before a claim), REFUND_PENDING → REFUNDED (cancelled after funding, or past the
 * deadline unclaimed). IN_PROGRESS (the earlier name of CLAIMED) is renamed.
 *
 * `escrow_units` is the reward in the asset's integer units; `escrow_contract_address` and
 * `escrow_wallet_id` stay as they were for the demo's disputes (a new bounty takes the
 * network's configured escrow contract).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE bounties DROP CONSTRAINT bounties_state_check;
UPDATE bounties SET state = 'CLAIMED' WHERE state = 'IN_PROGRESS';
ALTER TABLE bounties ADD CONSTRAINT bounties_state_check CHECK (state IN ('FUNDING_PENDING', 'OPEN', 'CLAIMED',
  'SUBMITTED', 'REJECTED', 'DISPUTED', 'RELEASE_PENDING', 'REFUND_PENDING', 'RELEASED', 'REFUNDED', 'CANCELLED'));
ALTER TABLE bounties
  ADD COLUMN description text NOT NULL DEFAULT '' CHECK (length(description) <= 20000),
  ADD COLUMN acceptance_criteria text NOT NULL DEFAULT '' CHECK (length(acceptance_criteria) <= 20000),
  ADD COLUMN required_skills text[] NOT NULL DEFAULT '{}',
  ADD COLUMN required_protocols text[] NOT NULL DEFAULT '{}',
  ADD COLUMN deadline_at timestamptz,
  ADD COLUMN posted_by_account_id uuid REFERENCES accounts(id),
  ADD COLUMN funded_at timestamptz,
  ADD COLUMN funding_reference text,
  ADD COLUMN claimant_workspace_id uuid REFERENCES workspaces(id),
  ADD COLUMN claimant_agent_id uuid REFERENCES agents(id),
  ADD COLUMN claimed_at timestamptz,
  ADD COLUMN delivery_due_at timestamptz,
  ADD COLUMN submitted_at timestamptz,
  ADD COLUMN closed_at timestamptz;
CREATE INDEX bounties_open_idx ON bounties (created_at DESC, id DESC) WHERE state = 'OPEN';
CREATE INDEX bounties_deadline_idx ON bounties (deadline_at) WHERE state IN ('OPEN', 'CLAIMED');
`)
})
