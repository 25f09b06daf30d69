/**
 * Commerce_ReceiveProcessorWebhook (spec §5.1.4; docs/processor-webhooks.md): a payment
 * processor's event, verified on its exact bytes, applied once to the PROCESSOR payment it names,
 * in the command's one transaction (src/http/group.ts) together with the event's row.
 */
import type { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { completeRefund } from "../orders/Refunds.js"
import * as Settlement from "../Settlement.js"
import type { PaymentRecord } from "../Settlement.js"
import { ProcessorWebhookSettings } from "./Config.js"
import { ProcessorWebhooksRepo, type ReceivedEvent } from "./Repo.js"
import type { ProcessorWebhookReceipt } from "./Schemas.js"
import { type PaymentMove, signatureInvalid, type VerifiedEvent, verifyEvent } from "./Signatures.js"

/** The payment states a failure moves (Settlement's `failPayment`). */
const FailableStates: ReadonlyArray<string> = ["CREATED", "PENDING", "OBSERVED"]

const receiptOf = (row: ReceivedEvent, duplicate: boolean): ProcessorWebhookReceipt => ({
  provider: row.provider,
  eventId: row.eventId,
  eventType: row.eventType,
  outcome: row.outcome,
  paymentId: row.paymentId,
  duplicate,
  receivedAt: row.receivedAt
})

/** Payment processor webhooks. Requires `SqlClient`, `Ids`, `ProcessorWebhookSettings`. */
export class ProcessorWebhooks extends Effect.Service<ProcessorWebhooks>()("agent-directory/ProcessorWebhooks", {
  effect: Effect.gen(function*() {
    const repo = yield* ProcessorWebhooksRepo
    const { processorWebhooks } = yield* ProcessorWebhookSettings

    /** Our PROCESSOR payment the event names: by our id, else by the processor's reference. */
    const paymentOf = (event: VerifiedEvent): Effect.Effect<Option.Option<PaymentRecord>, never, SqlClient.SqlClient> =>
      Effect.map(
        Option.isSome(event.paymentId)
          ? Settlement.findPayment(event.paymentId.value)
          : Option.isSome(event.reference)
          ? Settlement.findPaymentByReference("PROCESSOR", event.reference.value)
          : Effect.succeed(Option.none<PaymentRecord>()),
        // an event of a processor never moves an on-chain, x402 or admin payment
        Option.filter((payment) => payment.rail === "PROCESSOR")
      )

    /** Makes the move on the payment; false when its state does not allow it (nothing changed). */
    const move = (payment: PaymentRecord, to: PaymentMove) => {
      switch (to) {
        case "SUCCEEDED":
          return Effect.map(
            Settlement.confirmPayment(payment.id, { transactionHash: null }),
            (confirmed) => Option.isSome(confirmed) && confirmed.value.changed
          )
        case "FAILED":
          return Settlement.failPayment(payment.id).pipe(Effect.as(FailableStates.includes(payment.state)))
        case "REFUNDED":
          // completes a refund Commerce_RefundOrder started (payment REFUND_PENDING); any other state is left as it is
          return completeRefund(payment.id)
      }
    }

    /**
     * Verifies and applies one delivery: `provider` the `{provider}` path segment, `headers` the
     * request's (lower-case names), `body` its exact text. Answers the event's receipt: this
     * delivery's outcome, or (`duplicate` true) the first delivery's, when the event was received
     * before (nothing changes).
     *
     * Fails with `WebhookSignatureInvalid` (401: unknown provider, missing, malformed, wrong or
     * stale signature) or `ProcessorEventInvalid` (400: signed, not an event of the scheme).
     */
    const receive = (input: {
      readonly provider: string
      readonly headers: Readonly<Record<string, string | undefined>>
      readonly body: string
    }) =>
      Effect.gen(function*() {
        const provider = processorWebhooks.providers.get(input.provider)
        if (provider === undefined) return yield* signatureInvalid()
        const at = yield* now
        const event = yield* verifyEvent(provider, input.headers, input.body, at.getTime())
        const key = { provider: input.provider, eventId: event.eventId }
        const claimed = yield* repo.claim({ ...key, eventType: event.eventType, at })
        if (Option.isNone(claimed)) {
          const first = yield* Effect.flatMap(repo.find(key), Effect.orDie)
          return receiptOf(first, true)
        }
        const payment = Option.isSome(event.move) ? yield* paymentOf(event) : Option.none<PaymentRecord>()
        const paymentId = Option.getOrNull(Option.map(payment, (p) => p.id))
        const outcome: ReceivedEvent["outcome"] = Option.isNone(event.move)
          ? "IGNORED"
          : Option.isNone(payment)
          ? "UNMATCHED"
          : (yield* move(payment.value, event.move.value))
          ? "APPLIED"
          : "IGNORED"
        yield* repo.settle({ ...key, outcome, paymentId })
        return receiptOf({ ...claimed.value, outcome, paymentId }, false)
      }).pipe(dieOnStorageFailure)

    return { receive }
  }),
  dependencies: [ProcessorWebhooksRepo.Default]
}) {}
