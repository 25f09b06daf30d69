/**
 * Outbound events (docs/webhooks.md): what integrators are told when an order, a payment, an
 * entitlement, a run, a bounty, an import or an invitation moves, without polling.
 *
 * {@link emitEvent} writes the event into the outbox (`events`) in the caller's transaction, and
 * with it one PENDING delivery for each ACTIVE webhook subscription of the workspace that takes
 * its kind: an event, and its deliveries, exist exactly when the change committed. The senders
 * (src/workspaces/webhooks/Delivery.ts) deliver them with Standard Webhooks signatures.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { now } from "./Clock.js"
import { Ids } from "./Ids.js"
import type { EventKind } from "../schema/events.js"

export { EventFamilies, type EventFamily, type EventKind } from "../schema/events.js"

/** One event as a change emits it. */
export interface OutboundEvent {
  /** The workspace whose subscriptions are told (the buyer's for an order, the owner's for a run). */
  readonly workspaceId: string
  readonly kind: EventKind
  /** The id of the resource that moved. */
  readonly subjectId: string | null
  /** The payload's `data` (JSON: strings for units and ids, ISO 8601 for times). */
  readonly data: Readonly<Record<string, unknown>>
}

/**
 * Writes `event` into the outbox with one PENDING delivery (due now) per ACTIVE subscription of
 * its workspace whose `event_kinds` has its kind or `<family>.*`, in the caller's transaction.
 * Returns the event's id (the deliveries' `webhook-id`). SQL failures are defects.
 */
export const emitEvent = (event: OutboundEvent): Effect.Effect<string, never, SqlClient.SqlClient | Ids> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = yield* Effect.flatMap(Ids, (ids) => ids.next)
    const at = yield* now
    const family = event.kind.slice(0, event.kind.indexOf("."))
    yield* sql`INSERT INTO events (id, workspace_id, kind, subject_id, data, created_at)
      VALUES (${id}, ${event.workspaceId}, ${event.kind}, ${event.subjectId}, ${JSON.stringify(event.data)}::jsonb, ${at})`
    yield* sql`INSERT INTO webhook_deliveries (subscription_id, event_id, state, next_attempt_at, created_at)
      SELECT s.id, ${id}, 'PENDING', ${at}, ${at} FROM webhook_subscriptions s
      WHERE s.workspace_id = ${event.workspaceId} AND s.state = 'ACTIVE' AND s.deleted_at IS NULL
        AND (${event.kind} = ANY (s.event_kinds) OR ${family + ".*"} = ANY (s.event_kinds))`
    return id
  }).pipe(Effect.orDie)
