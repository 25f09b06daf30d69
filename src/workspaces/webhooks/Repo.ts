/** SQL of webhook subscriptions and deliveries (tables of migration 0052). */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import type { WebhookDelivery, WebhookSubscription } from "./Schemas.js"

/** Keyset position of a subscription or a delivery: `created_at` (text, microseconds) and the id; newest first. */
export const WebhookPosition = Schema.Tuple(Schema.String, Schema.String)
type Position = typeof WebhookPosition.Type

const position = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/** A subscription's row as the sender and the commands need it (secrets still sealed). */
export interface SubscriptionSecrets {
  readonly id: string
  readonly url: string
  readonly secretSealed: string
  readonly previousSecretSealed: string | null
  readonly previousSecretUntil: Date | null
}

/** Reads and writes `webhook_subscriptions` and `webhook_deliveries`. Requires `SqlClient`. */
export class WebhooksRepo extends Effect.Service<WebhooksRepo>()("agent-directory/WebhooksRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const subscriptionColumns = sql.literal(`s.id, s.workspace_id AS "workspacePublicId", s.url, array_to_json(s.event_kinds) AS "eventKinds",
      s.description, s.state, s.disabled_reason AS "disabledReason",
      s.previous_secret_until AS "previousSecretValidUntil",
      s.version::float8 AS version, s.created_at AS "createdAt", s.updated_at AS "updatedAt"`)

    /** One live (not deleted, unless `deleted`) subscription of the workspace. */
    const find = (workspaceId: string, id: string, deleted = false) =>
      sql<WebhookSubscription>`SELECT ${subscriptionColumns} FROM webhook_subscriptions s
        WHERE s.id = ${id} AND s.workspace_id = ${workspaceId} ${deleted ? sql`` : sql`AND s.deleted_at IS NULL`}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    const insert = (row: {
      readonly id: string
      readonly workspaceId: string
      readonly url: string
      readonly eventKinds: ReadonlyArray<string>
      readonly description: string | null
      readonly secretSealed: string
      readonly createdBy: string
      readonly at: Date
    }) =>
      sql`INSERT INTO webhook_subscriptions (id, workspace_id, url, event_kinds, description, secret_sealed, state,
          created_by, version, created_at, updated_at)
        VALUES (${row.id}, ${row.workspaceId}, ${row.url}, ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(row.eventKinds)}::jsonb)), ${row.description},
          ${row.secretSealed}, 'ACTIVE', ${row.createdBy}, 1, ${row.at}, ${row.at})`.pipe(Effect.asVoid, Effect.orDie)

    /** One page of the workspace's live subscriptions, newest first. */
    const list = (input: { readonly workspaceId: string; readonly after: Position | undefined; readonly take: number }) =>
      sql<WebhookSubscription & { position: string }>`SELECT ${subscriptionColumns}, ${sql.literal(position("s.created_at"))} AS position
        FROM webhook_subscriptions s
        WHERE s.workspace_id = ${input.workspaceId} AND s.deleted_at IS NULL
          ${input.after === undefined ? sql`` : sql`AND (s.created_at, s.id) < (${input.after[0]}::timestamptz, ${input.after[1]}::uuid)`}
        ORDER BY s.created_at DESC, s.id DESC LIMIT ${input.take}`.pipe(
        Effect.map((rows) => rows.map(({ position, ...subscription }) => ({ subscription, position: [position, subscription.id] as const }))),
        Effect.orDie
      )

    /** One page of a subscription's deliveries, newest first, optionally of one state. */
    const deliveries = (input: {
      readonly subscriptionId: string
      readonly state: string | null
      readonly after: Position | undefined
      readonly take: number
    }) =>
      sql<WebhookDelivery & { position: string }>`SELECT d.event_id AS "eventId", e.kind AS "eventKind", d.state, d.attempts,
            CASE WHEN d.state = 'PENDING' THEN d.next_attempt_at END AS "nextAttemptAt",
            d.last_attempt_at AS "lastAttemptAt", d.last_status AS "lastStatus", d.last_error AS "lastError",
            d.delivered_at AS "deliveredAt", d.created_at AS "createdAt", ${sql.literal(position("d.created_at"))} AS position
          FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE d.subscription_id = ${input.subscriptionId}
            ${input.state === null ? sql`` : sql`AND d.state = ${input.state}`}
            ${input.after === undefined ? sql`` : sql`AND (d.created_at, d.event_id) < (${input.after[0]}::timestamptz, ${input.after[1]}::uuid)`}
          ORDER BY d.created_at DESC, d.event_id DESC LIMIT ${input.take}`.pipe(
        Effect.map((rows) => rows.map(({ position, ...delivery }) => ({ delivery, position: [position, delivery.eventId] as const }))),
        Effect.orDie
      )

    /** The sealed secrets of a live subscription, locked (for a rotation). */
    const lockSecrets = (workspaceId: string, id: string) =>
      sql<SubscriptionSecrets>`SELECT id, url, secret_sealed AS "secretSealed", previous_secret_sealed AS "previousSecretSealed",
          previous_secret_until AS "previousSecretUntil"
        FROM webhook_subscriptions WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL FOR UPDATE`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    /** Cancels the subscription's PENDING deliveries (it was deleted or disabled). */
    const cancelPending = (subscriptionId: string) =>
      sql`UPDATE webhook_deliveries SET state = 'CANCELLED' WHERE subscription_id = ${subscriptionId} AND state = 'PENDING'`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    return { find, insert, list, deliveries, lockSecrets, cancelPending }
  })
}) {}
