/**
 * What happens to an ONCHAIN payment when its transaction intent moves (layers/TransactionIntents.ts
 * `IntentOutcomeHandler`, purpose kind `commerce.payment`, id = the payment's), in the transaction
 * that records the intent's change, so each outcome is applied once (the settlement's functions are
 * idempotent too):
 *
 * - OBSERVED (the transfer is in a canonical block): payment → OBSERVED with the hash, order →
 *   PAYMENT_OBSERVED;
 * - CONFIRMED (the network's depth reached): payment → CONFIRMED with the payer (CAIP-10 of the
 *   sender), order → PAID → ACTIVE, entitlement ACTIVE;
 * - SUBMITTED after OBSERVED (a reorganisation dropped the block): payment → PENDING, order →
 *   PAYMENT_PENDING (a first SUBMITTED, the broadcast, changes nothing);
 * - FAILED (reverted, rejected), EXPIRED (never signed), REPLACED (another transaction took the
 *   nonce): payment → FAILED; the order takes another payment until it is due.
 */
import { Effect } from "effect"
import type { IntentOutcomeHandler } from "../../../layers/TransactionIntents.js"
import { confirmPayment, failPayment, observePayment, revertPayment } from "../Settlement.js"

/** The ONCHAIN payments' reaction to their intents' changes (see the module docs). */
export const paymentOutcome: IntentOutcomeHandler = (event) => {
  const id = event.purpose.id
  const hash = event.intent.transactionHash?.toLowerCase() ?? null
  switch (event.state) {
    case "OBSERVED":
      return observePayment(id, { transactionHash: hash })
    case "CONFIRMED":
      return Effect.asVoid(confirmPayment(id, { transactionHash: hash, payer: `${event.intent.network}:${event.intent.from}` }))
    case "SUBMITTED":
      return revertPayment(id)
    case "FAILED":
    case "EXPIRED":
    case "REPLACED":
      return failPayment(id)
    default:
      return Effect.void
  }
}
