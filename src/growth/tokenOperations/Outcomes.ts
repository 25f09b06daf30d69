/**
 * What happens to a token operation when its transaction intent moves (layers/TransactionIntents.ts
 * `IntentOutcomeHandler`, purpose kind `token-operation`), in the transaction that records the
 * intent's change, so each outcome is applied once:
 *
 * - SUBMITTED (broadcast, or its block reorged out): BUILD_PENDING → SUBMITTED (a SUBMITTED
 *   operation stays so);
 * - OBSERVED: nothing (the operation waits for the confirmation depth);
 * - CONFIRMED: → CONFIRMED, then → RECONCILED with a journal entry: the treasury's account
 *   (`treasury:<CAIP-10 of the sender>`) credited and the destination's account debited by the
 *   units (`<kind account>:<CAIP-10 of the destination>`), the transaction hash beside it;
 *   `journalEntryId` and `reconciledAt` set;
 * - FAILED (reverted, refused by the wallet policy, rejected): → FAILED with the intent's
 *   `failureCode`; EXPIRED → FAILED `expired`; REPLACED (another transaction took its nonce) →
 *   MANUAL_REVIEW `replaced`.
 *
 * Each move adds one to the operation's version. An event for an operation in another state
 * (cancelled, already reconciled) changes nothing.
 */
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import type { IntentOutcomeHandler } from "../../../layers/TransactionIntents.js"
import { type JournalLine, makeTokenOperationsRepo } from "./Repo.js"

/** The ledger account a kind's units go to (debited), before the destination's CAIP-10 id. */
export const DebitAccountOf: Record<string, string> = {
  BURN: "burned",
  REWARD: "rewards",
  ALLOCATION: "allocations",
  DISTRIBUTION: "distributions",
  COMMISSION_PAYOUT: "commissions",
  TREASURY_TRANSFER: "treasury",
  BUYBACK: "buybacks",
  LIQUIDITY: "liquidity"
}

/** The journal lines of an operation: debit the destination's account, credit the treasury's. */
export const journalLines = (
  op: { readonly kind: string; readonly network: string; readonly destination: string; readonly units: bigint },
  from: string
): ReadonlyArray<JournalLine> => [
  { account: `${DebitAccountOf[op.kind] ?? "other"}:${op.network}:${op.destination}`, side: "DEBIT", units: op.units },
  { account: `treasury:${op.network}:${from}`, side: "CREDIT", units: op.units }
]

/** The token operations' reaction to their intents' changes (see the module docs). */
export const tokenOperationOutcome: IntentOutcomeHandler = (event) =>
  Effect.gen(function*() {
    const repo = yield* makeTokenOperationsRepo
    const ids = yield* Ids
    const at = yield* now
    const id = event.purpose.id
    switch (event.state) {
      case "SUBMITTED":
        yield* repo.move(id, ["BUILD_PENDING"], { state: "SUBMITTED", at })
        return
      case "FAILED":
        yield* repo.move(id, ["BUILD_PENDING", "SUBMITTED"], { state: "FAILED", at, failureCode: event.intent.failureCode ?? "failed" })
        return
      case "EXPIRED":
        yield* repo.move(id, ["BUILD_PENDING", "SUBMITTED"], { state: "FAILED", at, failureCode: "expired" })
        return
      case "REPLACED":
        yield* repo.move(id, ["BUILD_PENDING", "SUBMITTED"], { state: "MANUAL_REVIEW", at, failureCode: "replaced" })
        return
      case "CONFIRMED": {
        const found = yield* repo.findRow(id, true)
        if (Option.isNone(found) || !["BUILD_PENDING", "SUBMITTED"].includes(found.value.state)) return
        const op = found.value
        yield* repo.move(id, ["BUILD_PENDING", "SUBMITTED"], { state: "CONFIRMED", at })
        const entryId = yield* ids.next
        const network = op.network ?? event.intent.network
        yield* repo.insertJournalEntry({
          id: entryId,
          operationId: id,
          network,
          assetId: op.assetId,
          transactionHash: (event.intent.transactionHash ?? "").toLowerCase(),
          memo: `${op.kind}: ${op.publicSummary}`,
          at,
          lines: journalLines({ kind: op.kind, network, destination: op.destination ?? "", units: BigInt(op.units) }, event.intent.from)
        })
        yield* repo.move(id, ["CONFIRMED"], { state: "RECONCILED", at, journalEntryId: entryId, reconciled: true })
        return
      }
      default:
        return
    }
  }).pipe(Effect.orDie)
