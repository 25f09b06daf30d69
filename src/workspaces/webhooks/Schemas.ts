/**
 * Webhook subscriptions and their deliveries (docs/webhooks.md; Standard Webhooks): the wire
 * shapes of the Workspaces_*WebhookSubscription* operations.
 */
import { Schema } from "effect"
import { EventFamilies } from "../../../schema/events.js"
import { DateTimeZ, QueryInt, Uuid, Version, WireString } from "../../../schema/common.js"

/** An event kind a subscription takes: `<family>.*` (every kind of the family) or one exact kind (`order.paid`). */
export const EventKindPattern = Schema.String.pipe(
  Schema.pattern(new RegExp(`^(${EventFamilies.join("|")})\\.(\\*|[a-z_]+(\\.[a-z_]+)*)$`)),
  Schema.maxLength(100)
).annotations({
  identifier: "EventKindPattern",
  description: `\`<family>.*\` or an exact kind \`<family>.<what>\`; families: ${EventFamilies.join(", ")}`
})

/** An endpoint URL: absolute http(s), at most 2048 characters (https unless the host is in `OUTBOUND_ALLOWED_HOSTS`). */
export const WebhookUrl = WireString(1, 2048).pipe(
  Schema.filter((s) => {
    try {
      const url = new URL(s)
      return url.protocol === "https:" || url.protocol === "http:" || "must be an absolute https URL"
    } catch {
      return "must be an absolute https URL"
    }
  })
).annotations({ identifier: "WebhookUrl", description: "The endpoint's absolute https URL (at most 2048 characters)" })

/** A workspace's webhook subscription. */
export const WebhookSubscription = Schema.Struct({
  id: Uuid,
  workspacePublicId: Uuid,
  url: Schema.String,
  eventKinds: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  state: Schema.Literal("ACTIVE", "DISABLED"),
  /** Why it was DISABLED (`failing`: every delivery failed for three days). */
  disabledReason: Schema.NullOr(Schema.String),
  /** After a rotation, until when deliveries are signed with the previous secret too. */
  previousSecretValidUntil: Schema.NullOr(DateTimeZ),
  version: Version,
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "WebhookSubscription" })
export type WebhookSubscription = typeof WebhookSubscription.Type

/** A subscription with its signing secret (`whsec_…`), shown once: on creation and on rotation. */
export const WebhookSubscriptionWithSecret = Schema.Struct({
  ...WebhookSubscription.fields,
  secret: Schema.String.annotations({ description: "The Standard Webhooks signing secret (`whsec_` + base64); shown only now" })
}).annotations({ identifier: "WebhookSubscriptionWithSecret" })

/** Body of Workspaces_CreateWebhookSubscription. */
export const CreateWebhookSubscriptionRequest = Schema.Struct({
  url: WebhookUrl,
  eventKinds: Schema.Array(EventKindPattern).pipe(Schema.minItems(1), Schema.maxItems(50)),
  description: Schema.optionalWith(WireString(1, 500), { exact: true })
}).annotations({ identifier: "CreateWebhookSubscriptionRequest" })

/** Body of the versioned subscription commands (delete, rotate): the `version` the caller read. */
export const WebhookSubscriptionVersionRequest = Schema.Struct({
  expectedVersion: Version
}).annotations({ identifier: "WebhookSubscriptionVersionRequest" })

/** One delivery of an event to a subscription. */
export const WebhookDelivery = Schema.Struct({
  /** The event's id: the `webhook-id` header of every attempt. */
  eventId: Uuid,
  eventKind: Schema.String,
  state: Schema.Literal("PENDING", "DELIVERED", "FAILED", "CANCELLED"),
  attempts: Schema.Int,
  nextAttemptAt: Schema.NullOr(DateTimeZ),
  lastAttemptAt: Schema.NullOr(DateTimeZ),
  /** The HTTP status of the last attempt (none when no answer came). */
  lastStatus: Schema.NullOr(Schema.Int),
  /** Why the last attempt failed: `http-status`, `timeout`, `network-error`, `target-refused`, `response-too-large`. */
  lastError: Schema.NullOr(Schema.String),
  deliveredAt: Schema.NullOr(DateTimeZ),
  createdAt: DateTimeZ
}).annotations({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type

/** Query of the subscription and delivery lists. */
export const WebhookListQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 50 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true })
})

/** Query of Workspaces_ListWebhookDeliveries. */
export const WebhookDeliveriesQuery = Schema.Struct({
  ...WebhookListQuery.fields,
  state: Schema.optionalWith(Schema.Literal("PENDING", "DELIVERED", "FAILED", "CANCELLED"), { exact: true })
})
