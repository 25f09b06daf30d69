/**
 * What selling and buying through the directory needs (spec §2.5, §2.11, §3; docs/commerce.md):
 *
 * - `service_offers`: the offer's fulfillment policy — the entitlement an order of it grants
 *   (`entitlement_code`, NULL = the slug upper-cased), how long (`entitlement_days`, NULL = no
 *   end) and its grace after that (`grace_days`), whether it opens the seller agent's runtime to
 *   the buyer's workspace (`runtime_access`) with how many runs (`run_quota`, NULL = unmetered),
 *   and the EVM address that receives ONCHAIN and X402 payments (`payout_address`).
 * - `orders`: the offer and price the quote was taken from, the quantity, the account that placed
 *   it and when an unpaid order expires (`payment_due_at`); order numbers come from
 *   `order_numbers` (the demo's are below 1000).
 * - `payments`: the rail's natural key (`reference`: the x402 authorization nonce, the processor's
 *   reference, the transfer's intent), unique per rail, so a payment is applied once; the payer
 *   (CAIP-10) and when it was last moved and confirmed.
 * - `entitlements`: the runs used against the offer's quota and the end of the grace period.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE service_offers ADD COLUMN entitlement_code text CHECK (entitlement_code ~ '^[A-Z0-9_]{1,64}$');
ALTER TABLE service_offers ADD COLUMN entitlement_days integer CHECK (entitlement_days BETWEEN 1 AND 3660);
ALTER TABLE service_offers ADD COLUMN grace_days integer NOT NULL DEFAULT 0 CHECK (grace_days BETWEEN 0 AND 365);
ALTER TABLE service_offers ADD COLUMN runtime_access boolean NOT NULL DEFAULT false;
ALTER TABLE service_offers ADD COLUMN run_quota integer CHECK (run_quota > 0);
ALTER TABLE service_offers ADD COLUMN payout_address text CHECK (payout_address ~ '^0x[0-9a-fA-F]{40}$');

ALTER TABLE orders ADD COLUMN offer_id uuid REFERENCES service_offers(id);
ALTER TABLE orders ADD COLUMN offer_price_id uuid REFERENCES service_offer_prices(id);
ALTER TABLE orders ADD COLUMN quantity integer NOT NULL DEFAULT 1 CHECK (quantity > 0);
ALTER TABLE orders ADD COLUMN buyer_account_id uuid REFERENCES accounts(id);
ALTER TABLE orders ADD COLUMN payment_due_at timestamptz;
CREATE INDEX orders_payment_due_idx ON orders (payment_due_at) WHERE state IN ('CREATED', 'PAYMENT_PENDING');
CREATE INDEX orders_offer_idx ON orders (offer_id, workspace_id) WHERE offer_id IS NOT NULL;
CREATE SEQUENCE order_numbers START 1000;

ALTER TABLE payments ADD COLUMN reference text;
ALTER TABLE payments ADD COLUMN payer text;
ALTER TABLE payments ADD COLUMN updated_at timestamptz;
ALTER TABLE payments ADD COLUMN confirmed_at timestamptz;
CREATE UNIQUE INDEX payments_rail_reference_idx ON payments (rail, reference) WHERE reference IS NOT NULL;
CREATE INDEX payments_intent_idx ON payments (transaction_intent_id) WHERE transaction_intent_id IS NOT NULL;

ALTER TABLE entitlements ADD COLUMN runs_used integer NOT NULL DEFAULT 0 CHECK (runs_used >= 0);
ALTER TABLE entitlements ADD COLUMN run_quota integer CHECK (run_quota > 0);
ALTER TABLE entitlements ADD COLUMN grace_until timestamptz;
ALTER TABLE entitlements ADD COLUMN updated_at timestamptz;
CREATE INDEX entitlements_clock_idx ON entitlements (state, effective_until) WHERE state IN ('ACTIVE', 'GRACE');
`)
})
