/**
 * Transaction intents (layers/TransactionIntents.ts) keep the signed raw transaction they were
 * broadcast with, recorded before the broadcast, so a broadcast lost to a crash or a node that
 * forgot it is sent again with the same bytes (same hash, same nonce), and the explorer link of
 * their hash.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE transaction_intents ADD COLUMN signed_transaction text CHECK (signed_transaction ~ '^0x([0-9a-f]{2})+$');
ALTER TABLE transaction_intents ADD COLUMN explorer_url text;
-- what the platform's sender picks: PREPARED platform intents, oldest first
CREATE INDEX transaction_intents_sender_idx ON transaction_intents (state, created_at) WHERE state IN ('PREPARED','AWAITING_SIGNATURE');
`)
})
