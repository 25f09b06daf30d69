/**
 * The webhook senders (docs/webhooks.md): every `WEBHOOK_POLL_INTERVAL_MS`, in every process, one
 * round that takes the due PENDING deliveries (`FOR UPDATE SKIP LOCKED`, then leased for
 * {@link LeaseMillis} by moving `next_attempt_at` forward, so two processes never send one
 * delivery at once) and POSTs each through the outbound client, signed as the Standard Webhooks
 * specification says:
 *
 * - body `{"type": <kind>, "timestamp": <the event's time>, "data": {…}}`;
 * - `webhook-id` the event's id (the same on every attempt: receivers deduplicate by it),
 *   `webhook-timestamp` the attempt's Unix seconds, `webhook-signature` `v1,<HMAC-SHA256>` by
 *   the `standardwebhooks` library with the subscription's secret, and also with the previous
 *   secret while a rotation's grace lasts (space-separated).
 *
 * A 2xx answer is DELIVERED. Anything else (a status, a timeout, a refused target) is attempted
 * again after {@link RetryDelaysMillis} (about three days in all), then FAILED. A subscription
 * whose deliveries all failed for {@link DisableAfterMillis} is DISABLED (its PENDING deliveries
 * CANCELLED) and the workspace's owner is mailed. Delivery is at least once: a process that dies
 * after the POST and before recording it sends it again when the lease ends.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Redacted, Schedule } from "effect"
import { Webhook } from "standardwebhooks"
import { AppConfig } from "../../../layers/AppConfig.js"
import { now } from "../../../layers/Clock.js"
import { retryTransient } from "../../../layers/Engine.js"
import { Mail } from "../../../layers/Mail.js"
import { Outbound, outboundFailureCodes, outboundFailureOf } from "../../../layers/Outbound.js"
import { WorkspaceSettings } from "../Config.js"
import { webhookSecretCipher } from "./Secrets.js"

/** How long after each failed attempt the next one is made (ms): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h, 14 h, 17 h (the last attempt comes three days and 35 minutes after the first). */
export const RetryDelaysMillis: ReadonlyArray<number> = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  14 * 3_600_000,
  17 * 3_600_000
]
/** A subscription failing this long with no delivery succeeding is DISABLED (ms, 3 days). */
export const DisableAfterMillis = 3 * 24 * 3_600_000
/** How long a round holds the deliveries it took (ms). */
export const LeaseMillis = 60_000
/** Deliveries a round takes at most, and sends at once. */
export const RoundBatch = 50
const RoundConcurrency = 8

interface Due {
  readonly subscriptionId: string
  readonly eventId: string
  readonly attempts: number
  readonly kind: string
  readonly data: unknown
  readonly eventAt: Date
  readonly url: string
  readonly workspaceId: string
  readonly secretSealed: string
  readonly previousSecretSealed: string | null
  readonly previousSecretUntil: Date | null
}

/** What one attempt came to. */
type Outcome = { readonly ok: true; readonly status: number } | {
  readonly ok: false
  readonly status: number | null
  readonly error: string
}

/** One sender round (see the module docs). Requires `SqlClient`, `AppConfig`, `Outbound`, `Mail`. */
export const deliveryRound = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const outbound = yield* Outbound
  const cipher = webhookSecretCipher(config.keys.webhookSecrets)
  const at = yield* now
  const due = yield* sql.withTransaction(Effect.gen(function*() {
    const rows = yield* sql<Due>`
      SELECT d.subscription_id AS "subscriptionId", d.event_id AS "eventId", d.attempts, e.kind, e.data,
        e.created_at AS "eventAt", s.url, s.workspace_id AS "workspaceId", s.secret_sealed AS "secretSealed",
        s.previous_secret_sealed AS "previousSecretSealed", s.previous_secret_until AS "previousSecretUntil"
      FROM webhook_deliveries d
      JOIN webhook_subscriptions s ON s.id = d.subscription_id
      JOIN events e ON e.id = d.event_id
      WHERE d.state = 'PENDING' AND d.next_attempt_at <= ${at} AND s.state = 'ACTIVE' AND s.deleted_at IS NULL
      ORDER BY d.next_attempt_at, d.created_at
      LIMIT ${RoundBatch}
      FOR UPDATE OF d SKIP LOCKED`
    for (const row of rows) {
      yield* sql`UPDATE webhook_deliveries SET next_attempt_at = ${new Date(at.getTime() + LeaseMillis)}
        WHERE subscription_id = ${row.subscriptionId} AND event_id = ${row.eventId}`
    }
    return rows
  }))
  yield* Effect.forEach(due, (delivery) =>
    attempt(delivery).pipe(
      Effect.flatMap((outcome) => record(delivery, outcome)),
      Effect.catchAllCause((cause) => Effect.logWarning("webhook delivery not recorded", cause))
    ), { concurrency: RoundConcurrency, discard: true })

  /** POSTs one delivery, signed with the current (and, in its grace, the previous) secret. */
  function attempt(delivery: Due): Effect.Effect<Outcome> {
    return Effect.gen(function*() {
      const body = JSON.stringify({ type: delivery.kind, timestamp: delivery.eventAt.toISOString(), data: delivery.data })
      // signed when sent (not when the round began): a receiver checks the timestamp against its own clock
      const signedAt = new Date(Math.floor((yield* now).getTime() / 1000) * 1000)
      const secrets = [delivery.secretSealed]
      if (delivery.previousSecretSealed !== null && delivery.previousSecretUntil !== null && delivery.previousSecretUntil > at) {
        secrets.push(delivery.previousSecretSealed)
      }
      const signature = secrets
        .map((sealed) => new Webhook(Redacted.value(cipher.open(delivery.subscriptionId, sealed))).sign(delivery.eventId, signedAt, body))
        .join(" ")
      return yield* Effect.tryPromise(async (signal) => {
        const response = await outbound.fetch(delivery.url, {
          method: "POST",
          redirect: "manual",
          signal,
          headers: {
            "content-type": "application/json",
            "webhook-id": delivery.eventId,
            "webhook-timestamp": String(signedAt.getTime() / 1000),
            "webhook-signature": signature
          },
          body
        })
        await response.body?.cancel()
        return response.status
      }).pipe(
        Effect.map((status): Outcome => status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: "http-status" }),
        Effect.catchAll((e) => {
          const failure = outboundFailureOf(e.error)
          return Effect.succeed<Outcome>({
            ok: false,
            status: null,
            error: failure === undefined ? "network-error" : outboundFailureCodes[failure.reason]
          })
        })
      )
    })
  }

  /** Records an attempt, schedules the next one or ends the delivery, and disables a subscription failing too long. */
  function record(delivery: Due, outcome: Outcome) {
    return sql.withTransaction(Effect.gen(function*() {
      const attempts = delivery.attempts + 1
      const key = sql`subscription_id = ${delivery.subscriptionId} AND event_id = ${delivery.eventId} AND state = 'PENDING'`
      if (outcome.ok) {
        yield* sql`UPDATE webhook_deliveries SET state = 'DELIVERED', attempts = ${attempts}, last_attempt_at = ${at},
            last_status = ${outcome.status}, last_error = NULL, delivered_at = ${at}
          WHERE ${key}`
        yield* sql`UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = ${delivery.subscriptionId}`
        return
      }
      const last = attempts > RetryDelaysMillis.length
      yield* sql`UPDATE webhook_deliveries SET state = ${last ? "FAILED" : "PENDING"}, attempts = ${attempts},
          last_attempt_at = ${at}, last_status = ${outcome.status}, last_error = ${outcome.error},
          next_attempt_at = ${new Date(at.getTime() + (last ? 0 : RetryDelaysMillis[attempts - 1]!))}
        WHERE ${key}`
      const [failing] = yield* sql<{ since: Date }>`UPDATE webhook_subscriptions SET failing_since = COALESCE(failing_since, ${at})
        WHERE id = ${delivery.subscriptionId} RETURNING failing_since AS since`
      if (failing !== undefined && at.getTime() - failing.since.getTime() >= DisableAfterMillis) {
        yield* disable(delivery)
      }
    }))
  }

  /** DISABLED after failing too long: its PENDING deliveries CANCELLED, its workspace's owner told. */
  function disable(delivery: Due) {
    return Effect.gen(function*() {
      const [disabled] = yield* sql<{ id: string }>`UPDATE webhook_subscriptions
          SET state = 'DISABLED', disabled_reason = 'failing', version = version + 1, updated_at = ${at}
        WHERE id = ${delivery.subscriptionId} AND state = 'ACTIVE' RETURNING id`
      if (disabled === undefined) return
      yield* sql`UPDATE webhook_deliveries SET state = 'CANCELLED' WHERE subscription_id = ${delivery.subscriptionId} AND state = 'PENDING'`
      const owners = yield* sql<{ email: string }>`SELECT a.email FROM workspace_members m JOIN accounts a ON a.id = m.account_id
        WHERE m.workspace_id = ${delivery.workspaceId} AND m.role = 'OWNER' AND m.state = 'ACTIVE'`
      const mail = yield* Mail
      for (const owner of owners) {
        yield* mail.send({
          to: owner.email,
          subject: "A webhook endpoint of your workspace was disabled",
          text: `Every delivery to the webhook endpoint ${new URL(delivery.url).origin} failed for three days, so it was ` +
            `disabled (subscription ${delivery.subscriptionId}). Its pending deliveries were cancelled. Fix the endpoint, ` +
            "then subscribe it again."
        }).pipe(Effect.catchAll(() => Effect.logWarning("webhook disable mail not sent")))
      }
    })
  }
})

/** The sender loop of this process. */
export const WebhookDeliveryLive: Layer.Layer<never, never, AppConfig | WorkspaceSettings | Outbound | Mail | SqlClient.SqlClient> =
  Layer.scopedDiscard(Effect.gen(function*() {
    const settings = yield* WorkspaceSettings
    yield* deliveryRound.pipe(
      retryTransient,
      Effect.catchAllCause((cause) => Effect.logError("webhook delivery round failed", cause)),
      Effect.repeat(Schedule.spaced(`${settings.workspaces.webhookPollIntervalMs} millis`)),
      Effect.forkScoped
    )
  }))
