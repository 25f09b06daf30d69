/**
 * The moves of an ad campaign that time makes (spec §3 lists the states, not the moves;
 * these are ours): an approved campaign (APPROVED, or SCHEDULED when it was approved
 * before its `startAt`, see `Review.ts`) → ACTIVE at `startAt`, and → COMPLETED at
 * `endAt` (ACTIVE, or APPROVED/SCHEDULED whose window ended before it ever started).
 * PAUSED, SUSPENDED and the states before approval are left alone.
 *
 * Run by a `ClusterCron` on the durable engine (`layers/Engine.ts`) every minute: each
 * tick, in one transaction, moves every due campaign with one conditional UPDATE per
 * move (version + 1, `updated_at` = the tick's time from Effect's `Clock`), so a tick
 * run twice, or a review racing it (it then meets `version-conflict`), changes nothing
 * twice.
 *
 * Why a cron and not a workflow per campaign sleeping on `DurableClock` until
 * `startAt`/`endAt`: the cron is stateless and catches up by itself. It moves every
 * campaign that is due whatever put it there (a review, the demo seed, rows written
 * before this existed, a process that was down for a day), with nothing per campaign
 * to start, cancel on SUSPEND or re-plan, and the engine runs each occurrence exactly
 * once (its entity id is the occurrence's time). The price is precision: a move
 * happens up to a minute (plus the engine's poll interval) after its instant. Ad events
 * do not depend on that minute: Growth_RecordAdEvent checks the window itself.
 */
import { ClusterCron } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Cron, Duration, Effect, Layer, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { AdsRepo } from "./Repo.js"
import { AdsSettings } from "./Config.js"
import { ensurePackageOffers } from "./PackageOffers.js"

/**
 * One tick: every due campaign → ACTIVE, then every ended one → COMPLETED, in one
 * transaction. Returns the ids moved. Requires `SqlClient`, `AdsRepo`.
 */
export const moveDueCampaigns = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const repo = yield* AdsRepo
  const at = yield* now
  return yield* sql.withTransaction(Effect.gen(function*() {
    const activated = yield* repo.activateDue(at)
    const completed = yield* repo.completeDue(at)
    return { activated, completed }
  }))
})

/**
 * The ad packages' offers (`PackageOffers.ts`): every package without one gets its offer in
 * the platform's workspace (`ADS_PLATFORM_WORKSPACE_ID`; unset: nothing), in one transaction.
 * Requires `SqlClient`, `Ids`, `AdsSettings`.
 */
export const ensurePlatformOffers = Effect.gen(function*() {
  const workspace = (yield* AdsSettings).ads.platformWorkspaceId
  if (Option.isNone(workspace)) return { packages: 0, versions: 0 }
  const sql = yield* SqlClient.SqlClient
  const at = yield* now
  return yield* sql.withTransaction(ensurePackageOffers(workspace.value, at))
})

/**
 * The cron job (`AdCampaignLifecycle`, every minute UTC) registered on the engine: the
 * ad packages' missing offers ({@link ensurePlatformOffers}), then the due moves.
 * A tick older than ten years is still run (the default is to skip one older than a
 * day): it only catches up, so a late tick is as good as a punctual one. Requires the
 * engine's `Sharding` and `SqlClient`.
 */
export const CampaignLifecycleLive = ClusterCron.make({
  name: "AdCampaignLifecycle",
  cron: Cron.unsafeParse("* * * * *", "UTC"),
  skipIfOlderThan: Duration.days(3650),
  execute: Effect.zipRight(
    ensurePlatformOffers.pipe(
      Effect.tap(({ packages, versions }) =>
        packages + versions === 0
          ? Effect.void
          : Effect.logInfo("ad package offers made").pipe(Effect.annotateLogs({ packages, versions }))
      )
    ),
    moveDueCampaigns
  ).pipe(
    Effect.tap(({ activated, completed }) =>
      activated.length + completed.length === 0
        ? Effect.void
        : Effect.logInfo("ad campaigns moved").pipe(Effect.annotateLogs({ activated, completed }))
    ),
    Effect.asVoid
  )
}).pipe(Layer.provide(AdsRepo.Default))
