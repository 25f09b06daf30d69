/**
 * The daily projection of statistics on the durable engine: the
 * `DailyStatsProjection` ClusterCron runs at 00:05 UTC every day (once across all runners)
 * and projects the day that closed (the UTC day before `now`): the directory's figures and
 * those of every agent with evidence that day, set-based, each stored unless a read
 * projected it first (the first projection wins), retrying while the database is unavailable
 * (`retryTransient`). A day a late or missed tick did not
 * project is projected by its first read instead (src/stats/Stats.ts).
 */
import { ClusterCron } from "@effect/cluster"
import { Cron, Effect, Layer } from "effect"
import { now } from "../../layers/Clock.js"
import { retryTransient } from "../../layers/Engine.js"
import { addDays, dayOf } from "./Day.js"
import { Stats } from "./Stats.js"

/** The cron: 00:05 UTC daily, projects yesterday (UTC). */
const DailyStatsProjection = ClusterCron.make({
  name: "DailyStatsProjection",
  cron: Cron.unsafeParse("5 0 * * *", "UTC"),
  skipIfOlderThan: "3650 days",
  execute: Effect.gen(function*() {
    const stats = yield* Stats
    const day = addDays(dayOf(yield* now), -1)
    const agents = yield* stats.projectClosedDay(day)
    yield* Effect.logInfo("daily statistics projected").pipe(Effect.annotateLogs({ day, agents }))
  }).pipe(retryTransient, Effect.provide(Stats.Default))
})

/** The stats area's background work (needs `SqlClient` and the engine). */
export const StatsWorkflows = Layer.mergeAll(DailyStatsProjection)
