/** SQL of payment processor webhooks: the events applied once (`processor_webhook_events`, migration 0046). */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"

/** A received event's row. */
export const ReceivedEvent = Schema.Struct({
  provider: Schema.String,
  eventId: Schema.String,
  eventType: Schema.String,
  outcome: Schema.Literal("APPLIED", "IGNORED", "UNMATCHED"),
  paymentId: Schema.NullOr(Schema.String),
  receivedAt: Schema.DateFromSelf
})
export type ReceivedEvent = typeof ReceivedEvent.Type

const Key = Schema.Struct({ provider: Schema.String, eventId: Schema.String })

/** Processor webhook events. Requires `SqlClient`. SQL failures are defects. */
export class ProcessorWebhooksRepo extends Effect.Service<ProcessorWebhooksRepo>()("agent-directory/ProcessorWebhooksRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`provider, event_id AS "eventId", event_type AS "eventType", outcome, payment_id AS "paymentId",
      received_at AS "receivedAt"`

    /**
     * Claims the event for this transaction: inserts its row (outcome IGNORED until {@link settle}),
     * or nothing when (provider, event id) has a row already. A concurrent delivery of the same event
     * waits on the key until this transaction ends, then finds the row.
     */
    const claim = SqlSchema.findOne({
      Request: Schema.Struct({ provider: Schema.String, eventId: Schema.String, eventType: Schema.String, at: Schema.DateFromSelf }),
      Result: ReceivedEvent,
      execute: (e) =>
        sql`INSERT INTO processor_webhook_events (provider, event_id, event_type, outcome, received_at)
            VALUES (${e.provider}, ${e.eventId}, ${e.eventType}, 'IGNORED', ${e.at})
            ON CONFLICT (provider, event_id) DO NOTHING
            RETURNING ${columns}`
    })

    /** The row of an event received before. */
    const find = SqlSchema.findOne({
      Request: Key,
      Result: ReceivedEvent,
      execute: (key) => sql`SELECT ${columns} FROM processor_webhook_events WHERE provider = ${key.provider} AND event_id = ${key.eventId}`
    })

    /** Records what a claimed event did. */
    const settle = (input: {
      readonly provider: string
      readonly eventId: string
      readonly outcome: ReceivedEvent["outcome"]
      readonly paymentId: string | null
    }) =>
      sql`UPDATE processor_webhook_events SET outcome = ${input.outcome}, payment_id = ${input.paymentId}
          WHERE provider = ${input.provider} AND event_id = ${input.eventId}`.pipe(Effect.asVoid)

    return {
      claim: (e: { readonly provider: string; readonly eventId: string; readonly eventType: string; readonly at: Date }) =>
        Effect.orDie(claim(e)),
      find: (key: typeof Key.Type) => Effect.orDie(find(key)),
      settle: (input: Parameters<typeof settle>[0]) => Effect.orDie(settle(input))
    }
  })
}) {}
