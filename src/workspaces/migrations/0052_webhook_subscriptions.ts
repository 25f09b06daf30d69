/**
 * Outbound events and their webhook deliveries (docs/webhooks.md; Standard Webhooks):
 *
 * - `events`: the outbox. A change writes its event in its own transaction (layers/Events.ts),
 *   so an event exists exactly when its change committed. `kind` is `<family>.<what>`
 *   (`order.paid`), `subject_id` the resource's id, `data` the event's payload.
 * - `webhook_subscriptions`: a workspace's HTTPS endpoint and the event kinds it takes (`order.*`
 *   or exact kinds); its signing secret sealed at rest (AES-256-GCM, layers/TokenCipher.ts), and
 *   after a rotation the previous one, still signing until `previous_secret_until`. ACTIVE, or
 *   DISABLED after failing for three days; deleted ones keep their row (`deleted_at`) and history.
 * - `webhook_deliveries`: one per (subscription, event), written with the event (fan-out in the
 *   change's transaction), PENDING until DELIVERED, or FAILED after its last attempt, or
 *   CANCELLED when its subscription is deleted or disabled; `next_attempt_at` is when it is
 *   next due (a sender holding it leases it by moving that forward).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE events (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  kind text NOT NULL CHECK (kind ~ '^[a-z]+(\\.[a-z_]+)+$'),
  subject_id uuid,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX events_workspace_idx ON events (workspace_id, created_at DESC, id DESC);

CREATE TABLE webhook_subscriptions (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  url text NOT NULL,
  event_kinds text[] NOT NULL CHECK (cardinality(event_kinds) BETWEEN 1 AND 50),
  description text,
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_until timestamptz,
  state text NOT NULL CHECK (state IN ('ACTIVE', 'DISABLED')),
  disabled_reason text,
  failing_since timestamptz,
  created_by uuid REFERENCES accounts(id),
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX webhook_subscriptions_workspace_idx ON webhook_subscriptions (workspace_id, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id),
  event_id uuid NOT NULL REFERENCES events(id),
  state text NOT NULL CHECK (state IN ('PENDING', 'DELIVERED', 'FAILED', 'CANCELLED')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL,
  last_attempt_at timestamptz,
  last_status integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (subscription_id, event_id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'PENDING';
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at DESC, event_id DESC);
`)
})
