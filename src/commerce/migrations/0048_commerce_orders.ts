/**
 * Orders' cancellation, expiry, refunds and the entitlement clock (spec §2.11, §3; docs/commerce.md):
 *
 * - `payments.refund_transaction_intent_id`: the transaction intent that sends an on-chain (ONCHAIN,
 *   X402) payment back to its payer when its order is refunded (purpose `commerce.refund`).
 * - GRACE entitlements by `grace_until`, for the clock's sweep (`src/commerce/orders/Lifecycle.ts`; unpaid
 *   orders by deadline and ACTIVE entitlements by `effective_until` are indexed by 0044).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE payments ADD COLUMN refund_transaction_intent_id uuid;
CREATE INDEX payments_refund_intent_idx ON payments (refund_transaction_intent_id) WHERE refund_transaction_intent_id IS NOT NULL;
CREATE INDEX entitlements_grace_until_idx ON entitlements (grace_until) WHERE state = 'GRACE';
`)
})
