/**
 * The moves of bounties that time makes (docs/bounties.md), on the engine's durable clock:
 *
 * - an OPEN bounty past its deadline, unclaimed → REFUND_PENDING with the platform's refund
 *   intent (the whole escrow back to the funder; REFUNDED once confirmed), `bounty.expired`;
 * - a CLAIMED bounty whose claimant delivered nothing by `delivery_due_at` → OPEN again (the
 *   claim cleared; another workspace may claim it, or the deadline refunds it),
 *   `bounty.claim_released`;
 * - a REJECTED bounty nobody disputed within `BOUNTY_DISPUTE_WINDOW_HOURS` of the rejection →
 *   REFUND_PENDING with the refund intent, `bounty.refund_started`.
 *
 * Run by a `ClusterCron` every minute (like the orders' lifecycle, `src/commerce/orders/Lifecycle.ts`:
 * a sweep whatever put a bounty there, each occurrence run once by the engine). Each bounty moves
 * in its own transaction with one conditional UPDATE at the version it was read at (version + 1),
 * so a tick run twice, or a command racing it, changes nothing twice. A refund whose escrow or
 * chain is unavailable leaves the bounty as it is for the next tick.
 */
import { ClusterCron } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Cron, Duration, Effect } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient } from "../../../layers/Engine.js"
import { BountySettings } from "./Config.js"
import { bountyEvent, preparePayout } from "./Payouts.js"

const HourMs = 3_600_000

interface Due {
  readonly id: string
  readonly version: number
  readonly workspaceId: string
  readonly network: string
  readonly contractAddress: string
  readonly units: string
}

/**
 * One tick at the clock's now: the moves of the module docs. Returns the ids moved by kind.
 * Requires `SqlClient`, `BountySettings` and the payout's chain services.
 */
export const moveDueBounties = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const settings = yield* BountySettings
  const at = yield* now
  const columns = sql.literal(`id, version::float8 AS version, workspace_id AS "workspaceId", escrow_network AS network,
    escrow_contract_address AS "contractAddress", escrow_units::text AS units`)
  const released: Array<string> = []
  const refunded: Array<string> = []

  const lateClaims = yield* sql<Due & { claimant: string }>`SELECT ${columns}, claimant_workspace_id AS claimant FROM bounties
    WHERE state = 'CLAIMED' AND delivery_due_at <= ${at} ORDER BY delivery_due_at LIMIT 100`
  for (const b of lateClaims) {
    yield* sql.withTransaction(Effect.gen(function*() {
      const moved = yield* sql`UPDATE bounties SET state = 'OPEN', claimant_workspace_id = NULL, claimant_agent_id = NULL,
          claimed_at = NULL, delivery_due_at = NULL, payout_address = NULL, updated_at = ${at}, version = version + 1
        WHERE id = ${b.id} AND version = ${b.version} AND state = 'CLAIMED' RETURNING id`
      if (moved.length === 0) return
      // the claimant's workspace is told too: it was the claimant until this move
      yield* bountyEvent(b.id, "claim_released", { releasedWorkspaceId: b.claimant }, [b.claimant])
      released.push(b.id)
    }))
  }

  const windowStart = new Date(at.getTime() - settings.bounties.disputeWindowHours * HourMs)
  const refunds = yield* sql<Due & { state: string }>`SELECT ${columns}, state FROM bounties
    WHERE (state = 'OPEN' AND deadline_at <= ${at}) OR (state = 'REJECTED' AND rejected_at <= ${windowStart})
    ORDER BY updated_at LIMIT 100`
  for (const b of refunds) {
    const done = yield* sql.withTransaction(Effect.gen(function*() {
      const intent = yield* preparePayout({
        bountyId: b.id,
        workspaceId: b.workspaceId,
        network: b.network,
        contractAddress: b.contractAddress,
        provider: null,
        toProvider: 0n,
        toClient: BigInt(b.units)
      })
      const moved = yield* sql`UPDATE bounties SET state = 'REFUND_PENDING', payout_intent_id = ${intent.id}, updated_at = ${at},
          version = version + 1
        WHERE id = ${b.id} AND version = ${b.version} AND state = ${b.state} RETURNING id`
      if (moved.length === 0) return yield* Effect.fail("moved meanwhile" as const)
      yield* bountyEvent(b.id, b.state === "OPEN" ? "expired" : "refund_started")
      return true
    })).pipe(
      Effect.catchAll((e) =>
        Effect.as(Effect.logWarning("a due bounty refund could not be prepared; next tick retries", { bountyId: b.id, cause: String(e) }), false)
      )
    )
    if (done) refunded.push(b.id)
  }
  return { claimReleased: released, refundStarted: refunded }
})

/** The cron job (`BountyLifecycle`, every minute UTC) registered on the engine. */
export const BountyLifecycleLive = ClusterCron.make({
  name: "BountyLifecycle",
  cron: Cron.unsafeParse("* * * * *", "UTC"),
  skipIfOlderThan: Duration.days(3650),
  execute: moveDueBounties.pipe(
    retryTransient,
    Effect.tap((moved) =>
      Object.values(moved).every((ids) => ids.length === 0)
        ? Effect.void
        : Effect.logInfo("bounties moved").pipe(Effect.annotateLogs(moved))
    ),
    Effect.asVoid
  )
})
