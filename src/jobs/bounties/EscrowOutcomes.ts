/**
 * What the bounties area does when the escrow transaction of an accepted dispute resolution
 * (purpose kind {@link BountyEscrowPurpose}, id = the bounty) moves (layers/TransactionIntents.ts
 * `IntentOutcomeHandler`; run in the transaction that records the move, so applied once):
 *
 * - SUBMITTED / OBSERVED: the resolution records the transaction hash (`escrow_outcome` SUBMITTED).
 * - CONFIRMED: the bounty goes RELEASE_PENDING/REFUND_PENDING → RELEASED (some units to the
 *   provider: RELEASE, SPLIT) or REFUNDED (all to the client), version +1, with the units paid
 *   to each side (the contract's `Resolved` event when the receipt has it, else the decision's)
 *   and `settled_at`; the resolution records CONFIRMED; `bounty.released` or `bounty.refunded` is
 *   emitted to the poster's and the claimant's workspaces.
 * - FAILED, REPLACED, EXPIRED: the bounty stays pending; the resolution records FAILED with the
 *   intent's failure code (or the state, lower-cased) for an operator (docs/escrow.md).
 *
 * Every step is guarded by the current state, so a repeated event changes nothing.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { parseEventLogs } from "viem"
import { now } from "../../../layers/Clock.js"
import type { IntentEvent, IntentOutcomeHandler } from "../../../layers/TransactionIntents.js"
import { BountyEscrowAbi, escrowId } from "./Escrow.js"
import { bountyEvent } from "./Payouts.js"

/** The purpose kind of an escrow resolution intent; its id is the bounty's. */
export const BountyEscrowPurpose = "bounty-escrow"

const failedStates = new Set(["FAILED", "REPLACED", "EXPIRED"])

/** The units the contract's `Resolved` event of this bounty paid, if the receipt has it. */
const paidOnChain = (event: IntentEvent): { toProvider: bigint; toClient: bigint } | undefined => {
  if (event.receipt === null) return undefined
  const logs = parseEventLogs({ abi: BountyEscrowAbi, eventName: "Resolved", logs: event.receipt.logs, strict: false })
  const mine = logs.find((l) =>
    l.address.toLowerCase() === event.intent.to.toLowerCase() && l.args.bountyId === escrowId(event.purpose.id)
  )
  return mine && mine.args.toProvider !== undefined && mine.args.toClient !== undefined
    ? { toProvider: mine.args.toProvider, toClient: mine.args.toClient }
    : undefined
}

/** The outcome handler of {@link BountyEscrowPurpose} intents (see the module docstring). */
export const bountyEscrowOutcome: IntentOutcomeHandler = (event) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const intentId = event.intent.id
    const [resolution] = yield* sql<{ id: string; unitsToProvider: string; unitsToClient: string }>`
      SELECT id, units_to_provider::text AS "unitsToProvider", units_to_client::text AS "unitsToClient"
      FROM dispute_resolutions WHERE transaction_intent_id = ${intentId} AND bounty_id = ${event.purpose.id}`
    if (resolution === undefined) {
      return yield* Effect.logWarning("an escrow intent without its dispute resolution", { intentId, bountyId: event.purpose.id })
    }
    const hash = event.intent.transactionHash
    if (event.state === "SUBMITTED" || event.state === "OBSERVED") {
      yield* sql`UPDATE dispute_resolutions SET escrow_outcome = 'SUBMITTED', transaction_hash = ${hash}, outcome_at = ${at}
                 WHERE id = ${resolution.id} AND (escrow_outcome IS NULL OR escrow_outcome = 'SUBMITTED')`
      return
    }
    if (failedStates.has(event.state)) {
      const code = event.intent.failureCode ?? event.state.toLowerCase()
      yield* sql`UPDATE dispute_resolutions SET escrow_outcome = 'FAILED', failure_code = ${code}, transaction_hash = ${hash},
                   outcome_at = ${at}
                 WHERE id = ${resolution.id} AND (escrow_outcome IS NULL OR escrow_outcome <> 'CONFIRMED')`
      return
    }
    if (event.state !== "CONFIRMED") return
    const paid = paidOnChain(event) ?? { toProvider: BigInt(resolution.unitsToProvider), toClient: BigInt(resolution.unitsToClient) }
    const state = paid.toProvider > 0n ? "RELEASED" : "REFUNDED"
    yield* sql`UPDATE dispute_resolutions SET escrow_outcome = 'CONFIRMED', failure_code = NULL, transaction_hash = ${hash},
                 outcome_at = ${at}
               WHERE id = ${resolution.id} AND (escrow_outcome IS NULL OR escrow_outcome <> 'CONFIRMED')`
    const moved = yield* sql`UPDATE bounties SET state = ${state}, units_to_provider = ${paid.toProvider.toString()},
                 units_to_client = ${paid.toClient.toString()}, settled_at = ${at}, closed_at = ${at}, updated_at = ${at},
                 version = version + 1
               WHERE id = ${event.purpose.id} AND state IN ('RELEASE_PENDING', 'REFUND_PENDING') RETURNING id`
    if (moved.length > 0) {
      yield* bountyEvent(event.purpose.id, state.toLowerCase(), {
        unitsToProvider: paid.toProvider.toString(),
        unitsToClient: paid.toClient.toString(),
        transactionHash: hash
      })
    }
  }).pipe(Effect.orDie)
