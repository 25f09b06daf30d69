/**
 * Bounty escrow on chain (contracts/BountyEscrow.sol): an accepted dispute resolution's
 * transaction is a real transaction intent (`transaction_intents`, migration 0036), so
 * `dispute_resolutions.transaction_intent_id` no longer points at the legacy
 * `escrow_transaction_intents` (rows written before keep their ids there, unconstrained).
 * The escrow's outcome is recorded on the resolution (SUBMITTED, CONFIRMED, FAILED with its
 * failure code and transaction hash) and, once CONFIRMED, on the bounty (RELEASED or REFUNDED
 * with the units paid to each side).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE dispute_resolutions DROP CONSTRAINT dispute_resolutions_transaction_intent_id_fkey;
ALTER TABLE dispute_resolutions
  ADD COLUMN escrow_outcome text CHECK (escrow_outcome IN ('SUBMITTED', 'CONFIRMED', 'FAILED')),
  ADD COLUMN transaction_hash text CHECK (transaction_hash ~ '^0x[0-9a-f]{64}$'),
  ADD COLUMN failure_code text,
  ADD COLUMN outcome_at timestamptz;
CREATE INDEX dispute_resolutions_intent_idx ON dispute_resolutions (transaction_intent_id);
ALTER TABLE bounties
  ADD COLUMN units_to_provider numeric(78,0) CHECK (units_to_provider >= 0),
  ADD COLUMN units_to_client numeric(78,0) CHECK (units_to_client >= 0),
  ADD COLUMN settled_at timestamptz;
`)
})
