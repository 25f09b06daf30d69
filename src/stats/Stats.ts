/**
 * The rules of the stats area (spec §9 "/api/v1/stats/* immutable
 * projections"): which day is closed, today's live figures, and the projection of a closed
 * day: computed once, stored, and served as stored forever after.
 *
 * - Today is the UTC day of `now` (layers/Clock.ts). A day after it has no figures
 *   (`StatsDayNotAvailable`). Today's figures are computed live over the whole day as known now (`[00:00Z, 24:00Z)`:
 *   what happened at `now` itself counts) and never
 *   stored; their freshness is `{projectedAt: now, sourceWatermark: now}`.
 * - A closed day (before today) is read from storage; when it is not stored yet it is
 *   projected then over `[00:00Z, next 00:00Z)` and stored with `INSERT … ON CONFLICT DO
 *   NOTHING`, then read back: the first projection wins, and concurrent first readers all
 *   answer the stored bytes. Its freshness is `{projectedAt: when it was projected,
 *   sourceWatermark: the day's end}`. Evidence recorded later with a timestamp in the day
 *   does not change it.
 * - The `DailyStatsProjection` cron (src/stats/DailyProjection.ts) projects the day that
 *   closed, for the directory and every agent with evidence that day, shortly after midnight.
 */
import { Effect } from "effect"
import { InvalidRequest } from "../../schema/errors.js"
import { AgentNotFound } from "../../schema/errors.js"
import type { AgentDailyStats, DirectoryDailyStats } from "./Schemas.js"
import { now } from "../../layers/Clock.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"
import { addDays, dayEnd, dayOf, daysBetween, dayStart, spanDays } from "./Day.js"
import { type DayFreshness, makeDayDocument } from "./Document.js"
import { StatsDayNotAvailable } from "./Errors.js"
import { type AgentFigureRow, type DirectoryFigureRow, type RevenueRow, StatsRepo, type StoredDay } from "./Repo.js"

/** The most days a range list spans (`from`..`to`, both included). */
export const MaxRangeDays = 92

/** One day's answer: its document, freshness and (closed days only) its strong tag. */
export interface DayAnswer {
  readonly day: string
  readonly document: string
  readonly freshness: DayFreshness
  /** True for a closed day (stored, immutable); false for today (live). */
  readonly closed: boolean
  readonly etag: string
}

/** The `data` of the directory's day, in the schema's key order (src/stats/Schemas.ts). */
const directoryData = (
  day: string,
  closed: boolean,
  f: {
    readonly row: DirectoryFigureRow
    readonly networks: ReadonlyArray<{ network: string; listed: string }>
    readonly protocols: ReadonlyArray<{ protocol: string; listed: string }>
    readonly orders: { readonly paid: string; readonly revenue: ReadonlyArray<RevenueRow> }
  }
): DirectoryDailyStats => ({
  date: day,
  closed,
  agents: { listed: f.row.listed, verified: f.row.verified, new: f.row.new },
  networks: f.networks.map((n) => ({ network: n.network, listed: n.listed })),
  protocols: f.protocols.map((p) => ({ protocol: p.protocol, listed: p.listed })),
  runs: { started: f.row.runsStarted, succeeded: f.row.runsSucceeded, failed: f.row.runsFailed },
  feedback: { created: f.row.feedbackCreated, meanRatingPpm: f.row.meanRatingPpm },
  orders: { paid: f.orders.paid, revenue: f.orders.revenue.map(revenueItem) },
  bounties: {
    posted: f.row.bountiesPosted,
    funded: f.row.bountiesFunded,
    paid: f.row.bountiesPaid,
    disputed: f.row.bountiesDisputed
  }
})

/** One revenue item in the schema's key order. */
const revenueItem = (r: RevenueRow) => ({ assetId: r.assetId, symbol: r.symbol, units: r.units })

/** The `data` of an agent's day, in the schema's key order (src/stats/Schemas.ts). */
const agentData = (day: string, closed: boolean, r: AgentFigureRow): AgentDailyStats => ({
  date: day,
  entityPublicId: r.agentId,
  closed,
  runs: { started: r.runsStarted, succeeded: r.runsSucceeded, failed: r.runsFailed, latencyP50Ms: r.latencyP50Ms },
  feedback: { created: r.feedbackCreated, meanRatingPpm: r.meanRatingPpm },
  stars: r.stars,
  endpointProbes: { ok: r.probesOk, total: r.probesTotal },
  activityItems: r.activityItems,
  orders: { paid: r.ordersPaid, revenue: r.revenue.map(revenueItem) }
})

const queryProblem = (field: "from" | "to", detail: string) =>
  new InvalidRequest({ detail: `${field}: ${detail}`, errors: [{ in: "query", pointer: `/${field}`, detail }] })

/** Daily statistics of the directory and of agents. Requires `SqlClient`. */
export class Stats extends Effect.Service<Stats>()("agent-directory/Stats", {
  effect: Effect.gen(function*() {
    const repo = yield* StatsRepo

    /** The freshness of a closed day projected at `at`. */
    const closedFreshness = (day: string, at: Date): DayFreshness => ({ projectedAt: at, sourceWatermark: dayEnd(day).toISOString() })

    /** The directory's closed `day`, projected now (not stored). */
    const projectDirectory = (day: string, at: Date) =>
      Effect.map(
        repo.directoryFigures(dayStart(day), dayEnd(day)),
        (f) => makeDayDocument(day, directoryData(day, true, f), closedFreshness(day, at))
      )

    /** The closed `day` of every agent `targets` selects, projected now (not stored). */
    const projectAgents = (day: string, at: Date, targets: Parameters<typeof repo.agentFigures>[2]) =>
      Effect.map(
        repo.agentFigures(dayStart(day), dayEnd(day), targets),
        (rows) => rows.map((r) => ({ agentId: r.agentId, ...makeDayDocument(day, agentData(day, true, r), closedFreshness(day, at)) }))
      )

    const closedAnswer = (s: StoredDay): DayAnswer => ({ ...s, closed: true })

    /** Today's (live) answer from a document. */
    const liveAnswer = (day: string, figures: unknown, at: Date): DayAnswer => {
      const doc = makeDayDocument(day, figures, { projectedAt: at, sourceWatermark: at.toISOString() })
      return { ...doc, closed: false }
    }

    /** The directory's closed days `from`..`to` (all before today): stored ones, the others projected and stored first. */
    const closedDirectoryDays = (from: string, to: string, at: Date) =>
      Effect.gen(function*() {
        const have = new Set((yield* repo.storedDirectoryDays(from, to)).map((d) => d.day))
        const missing = daysBetween(from, to).filter((d) => !have.has(d))
        if (missing.length > 0) yield* repo.insertDirectoryDays(yield* Effect.forEach(missing, (d) => projectDirectory(d, at)))
        return (yield* repo.storedDirectoryDays(from, to)).map(closedAnswer)
      })

    /** One agent's closed days `from`..`to`: stored ones, the others projected and stored first. */
    const closedAgentDays = (agentId: string, from: string, to: string, at: Date) =>
      Effect.gen(function*() {
        const have = new Set((yield* repo.storedAgentDays(agentId, from, to)).map((d) => d.day))
        const missing = daysBetween(from, to).filter((d) => !have.has(d))
        if (missing.length > 0) {
          const projected = yield* Effect.forEach(missing, (d) => projectAgents(d, at, repo.oneAgent(agentId)))
          yield* repo.insertAgentDays(projected.flat())
        }
        return (yield* repo.storedAgentDays(agentId, from, to)).map(closedAnswer)
      })

    const liveDirectory = (day: string, at: Date) =>
      Effect.map(repo.directoryFigures(dayStart(day), dayEnd(day)), (f) => liveAnswer(day, directoryData(day, false, f), at))

    const liveAgent = (agentId: string, day: string, at: Date) =>
      Effect.map(repo.agentFigures(dayStart(day), dayEnd(day), repo.oneAgent(agentId)), ([r]) => liveAnswer(day, agentData(day, false, r!), at))

    /** Fails with `StatsDayNotAvailable` when `day` is after today; else today's day. */
    const availableDay = (day: string, at: Date) => {
      const today = dayOf(at)
      return day > today
        ? Effect.fail(new StatsDayNotAvailable({ detail: "date: the day has not begun yet (UTC); only days up to today have figures." }))
        : Effect.succeed(today)
    }

    /** The range's rules: `from <= to <= today`, at most {@link MaxRangeDays} days; fails with `InvalidRequest`. */
    const checkRange = (from: string, to: string, today: string) => {
      if (to > today) return Effect.fail(queryProblem("to", "must not be after today (UTC)"))
      if (from > to) return Effect.fail(queryProblem("from", "must not be after `to`"))
      if (spanDays(from, to) > MaxRangeDays) {
        return Effect.fail(queryProblem("from", `must be at most ${MaxRangeDays} days before \`to\`, both included`))
      }
      return Effect.void
    }

    const ensureAgent = (agentId: string) =>
      Effect.flatMap(repo.agentExists(agentId), (exists) =>
        exists ? Effect.void : Effect.fail(new AgentNotFound({ detail: "No agent has this entityPublicId." })))

    return {
      /**
       * Stats_GetDirectoryDailyStats: the directory's `day`. Fails with `StatsDayNotAvailable`
       * (after today).
       */
      directoryDay: (day: string) =>
        Effect.gen(function*() {
          const at = yield* now
          const today = yield* availableDay(day, at)
          if (day === today) return yield* liveDirectory(day, at)
          const [answer] = yield* closedDirectoryDays(day, day, at)
          return answer!
        }).pipe(dieOnStorageFailure),

      /**
       * Stats_GetAgentDailyStats: one agent's `day`. Fails with `AgentNotFound` (no agent has the
       * id), `StatsDayNotAvailable` (after today).
       */
      agentDay: (agentId: string, day: string) =>
        Effect.gen(function*() {
          yield* ensureAgent(agentId)
          const at = yield* now
          const today = yield* availableDay(day, at)
          if (day === today) return yield* liveAgent(agentId, day, at)
          const [answer] = yield* closedAgentDays(agentId, day, day, at)
          return answer!
        }).pipe(dieOnStorageFailure),

      /**
       * Stats_ListDirectoryDailyStats: the days `from`..`to`, in order (closed ones stored, today
       * live). Fails with `InvalidRequest` (the range's rules).
       */
      directoryRange: (from: string, to: string) =>
        Effect.gen(function*() {
          const at = yield* now
          const today = dayOf(at)
          yield* checkRange(from, to, today)
          const lastClosed = to < today ? to : addDays(today, -1)
          const closed = from <= lastClosed ? yield* closedDirectoryDays(from, lastClosed, at) : []
          return to === today ? [...closed, yield* liveDirectory(today, at)] : closed
        }).pipe(dieOnStorageFailure),

      /**
       * Stats_ListAgentDailyStats: one agent's days `from`..`to`, in order. Fails with
       * `AgentNotFound`, `InvalidRequest` (the range's rules).
       */
      agentRange: (agentId: string, from: string, to: string) =>
        Effect.gen(function*() {
          yield* ensureAgent(agentId)
          const at = yield* now
          const today = dayOf(at)
          yield* checkRange(from, to, today)
          const lastClosed = to < today ? to : addDays(today, -1)
          const closed = from <= lastClosed ? yield* closedAgentDays(agentId, from, lastClosed, at) : []
          return to === today ? [...closed, yield* liveAgent(agentId, today, at)] : closed
        }).pipe(dieOnStorageFailure),

      /**
       * Projects the closed `day` (the cron's work): the directory's day and the day of every
       * agent with evidence in it, each stored unless already stored (the first projection
       * wins). Returns how many agent days it computed. Fails with `SqlError`.
       */
      projectClosedDay: (day: string) =>
        Effect.gen(function*() {
          const at = yield* now
          if (day >= dayOf(at)) return 0
          yield* repo.insertDirectoryDays([yield* projectDirectory(day, at)])
          const agents = yield* projectAgents(day, at, repo.agentsWithEvidence(dayStart(day), dayEnd(day)))
          yield* repo.insertAgentDays(agents)
          return agents.length
        })
    }
  }),
  dependencies: [StatsRepo.Default]
}) {}
