/**
 * The moves of orders and entitlements that time makes (spec §3 lists the states, not the moves;
 * these are ours, docs/commerce.md):
 *
 * - an unpaid order (CREATED, PAYMENT_PENDING) past its payment deadline (`payment_due_at`) →
 *   EXPIRED, its open payments (CREATED, PENDING) → EXPIRED; an order whose payment was observed
 *   on chain (PAYMENT_OBSERVED) waits for its confirmation instead;
 * - an ACTIVE entitlement past `effective_until` → GRACE, until `grace_until`, then → EXPIRED;
 * - an ACTIVE order whose entitlements are all EXPIRED → COMPLETED.
 *
 * Run by a `ClusterCron` on the durable engine (`layers/Engine.ts`) every minute: each tick, in
 * one transaction, applies every due move with one conditional UPDATE per kind of move (orders:
 * version + 1, `updated_at` = the tick's time from Effect's `Clock`), so a tick run twice, or a
 * command racing it (a payment confirmed, a cancellation: it then meets `version-conflict` or
 * `invalid-state`), changes nothing twice.
 *
 * Why a cron and not a workflow per order sleeping on `DurableClock` until its deadline: orders
 * are placed by several paths (Commerce_CreateOrder, the x402 purchase, the admin rail), and
 * entitlements are activated by every rail's confirmation; a sweep moves whatever is due whatever
 * put it there, with nothing per order to start, cancel when it is paid, or re-plan when a
 * refund revokes its entitlement, and the engine runs each occurrence exactly once (its entity id
 * is the occurrence's time). The price is precision: a move happens up to a minute (plus the
 * engine's poll interval) after its instant. Nothing depends on that minute: a payment confirmed
 * for an order past its deadline but not yet EXPIRED is accepted, and a late one goes to
 * MANUAL_REVIEW (`../Settlement.ts`).
 */
import { ClusterCron } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Cron, Duration, Effect } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient } from "../../../layers/Engine.js"
import { makeOrdersRepo } from "./Repo.js"

/**
 * One tick at the clock's now, in one transaction: the moves of the module docs. Returns the ids
 * moved. Requires `SqlClient`.
 */
export const moveDueOrders = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const repo = yield* makeOrdersRepo
  const at = yield* now
  return yield* sql.withTransaction(repo.tick(at))
})

/**
 * The cron job (`CommerceOrderLifecycle`, every minute UTC) registered on the engine. A tick older
 * than ten years is still run (the default skips one older than a day): it only catches up, so a
 * late tick is as good as a punctual one. Requires the engine's `Sharding` and `SqlClient`.
 */
export const OrderLifecycleLive = ClusterCron.make({
  name: "CommerceOrderLifecycle",
  cron: Cron.unsafeParse("* * * * *", "UTC"),
  skipIfOlderThan: Duration.days(3650),
  execute: moveDueOrders.pipe(
    retryTransient,
    Effect.tap((moved) =>
      Object.values(moved).every((ids) => ids.length === 0)
        ? Effect.void
        : Effect.logInfo("orders and entitlements moved").pipe(Effect.annotateLogs(moved))
    ),
    Effect.asVoid
  )
})
