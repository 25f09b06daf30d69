/**
 * Payment processors' webhook events, applied once (spec §5.1.4; docs/processor-webhooks.md):
 *
 * - `processor_webhook_events`: one row per (provider, event id), written in the transaction that
 *   applies the event, so an event delivered twice (a processor's retry, or a replay) finds its row
 *   and changes nothing. `provider` is the configured name (`PAYMENT_PROCESSOR_WEBHOOKS`),
 *   `event_id` the provider's id (Stripe's `evt_…`, Standard Webhooks' `webhook-id`), `event_type`
 *   the event's type as sent, `outcome` what the event did: APPLIED (it moved its payment),
 *   IGNORED (a type that moves nothing), UNMATCHED (it names no payment of ours), `payment_id` the
 *   payment it names, if found. No payload is kept (raw payment payloads stay out of storage and logs).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE processor_webhook_events (
  provider text NOT NULL CHECK (provider ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  event_id text NOT NULL CHECK (length(event_id) BETWEEN 1 AND 255),
  event_type text NOT NULL CHECK (length(event_type) BETWEEN 1 AND 255),
  outcome text NOT NULL CHECK (outcome IN ('APPLIED','IGNORED','UNMATCHED')),
  payment_id uuid REFERENCES payments(id),
  received_at timestamptz NOT NULL,
  PRIMARY KEY (provider, event_id)
);
CREATE INDEX processor_webhook_events_payment_idx ON processor_webhook_events (payment_id) WHERE payment_id IS NOT NULL;
`)
})
