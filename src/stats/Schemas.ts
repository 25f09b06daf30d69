/**
 * Daily statistics (spec §9 "/api/v1/stats/* immutable projections"): the
 * figures of one UTC day of the directory and of one agent. Counts are count strings
 * (spec §2.1: decimal strings of digits); ratings are integers in ppm (0-1000000);
 * latencies integers in milliseconds. The definitions of every figure are in docs/stats.md
 * and in the operations' descriptions (src/stats/Api.ts).
 */
import { Schema } from "effect"
import { CountString, rule, Uuid } from "../../schema/common.js"

const DayPattern = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/

/** True when `s` (`YYYY-MM-DD`) names a day of the calendar (no 2026-02-30). */
const isCalendarDay = (s: string) => {
  const d = new Date(`${s}T00:00:00.000Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

/**
 * A UTC day, `YYYY-MM-DD` (spec §2.1 date) that exists in the calendar, years 0001-9999.
 * A request field breaking it is 400 `invalid-request` naming the field and this rule.
 */
export const StatsDay = Schema.String.pipe(
  Schema.filter((s) => DayPattern.test(s) && s >= "0001-01-01" && isCalendarDay(s)),
  Schema.annotations({
    ...rule("must be a calendar day YYYY-MM-DD (UTC)"),
    identifier: "StatsDay",
    description: "A UTC day, YYYY-MM-DD",
    jsonSchema: { type: "string", format: "date", pattern: DayPattern.source }
  })
)

/** A mean rating of the day, in ppm (0-1000000, rounded half away from zero), or null when nothing was rated. */
const MeanRatingPpm = Schema.NullOr(Schema.Int.pipe(Schema.between(0, 1_000_000)))

/** Runs of the day (playground runs excluded). */
export const DirectoryRunFigures = Schema.Struct({
  /** Runs whose `startedAt` is in the day. */
  started: CountString,
  /** Runs that ended SUCCEEDED, `completedAt` in the day. */
  succeeded: CountString,
  /** Runs that ended FAILED or TIMED_OUT, `completedAt` in the day. */
  failed: CountString
}).annotations({ identifier: "StatsRunFigures" })

/** Feedback written in the day. */
export const FeedbackFigures = Schema.Struct({
  /** Feedback whose `createdAt` is in the day, whatever its state now. */
  created: CountString,
  meanRatingPpm: MeanRatingPpm
}).annotations({ identifier: "StatsFeedbackFigures" })

/** The revenue of one asset in the day: the paid orders' totals, in minor units of the asset. */
export const RevenueFigure = Schema.Struct({
  assetId: Uuid,
  symbol: Schema.NullOr(Schema.String),
  /** Sum of the orders' `totalUnits` (spec §1.1 units: a decimal string of minor units). */
  units: CountString
}).annotations({ identifier: "StatsRevenueFigure" })

/** Orders paid in the day (`paidAt` in the day, whatever their state now) and their revenue by asset. */
export const OrderFigures = Schema.Struct({
  paid: CountString,
  /** By asset id, ascending; assets with no paid order are left out. */
  revenue: Schema.Array(RevenueFigure)
}).annotations({ identifier: "StatsOrderFigures" })

/** Bounties of every workspace that moved in the day (docs/stats.md, docs/bounties.md). */
export const BountyFigures = Schema.Struct({
  /** Bounties whose `createdAt` is in the day (Jobs_CreateBounty), whatever their state now. */
  posted: CountString,
  /** Bounties whose escrow funding was confirmed in the day (`fundedAt`). */
  funded: CountString,
  /** Bounties RELEASED in the day: their escrow's payout to the provider (all of it, or its part of a split) confirmed. */
  paid: CountString,
  /** Disputes opened in the day (Jobs_OpenBountyDispute), whatever their outcome. */
  disputed: CountString
}).annotations({ identifier: "StatsBountyFigures" })

/** Listed agents holding a registry-bound identity on one network. */
export const NetworkFigure = Schema.Struct({
  /** The network key (as Agents_ListAgents' `networks` filter takes it). */
  network: Schema.String,
  listed: CountString
}).annotations({ identifier: "StatsNetworkFigure" })

/** Listed agents speaking one protocol. */
export const ProtocolFigure = Schema.Struct({
  /** The protocol key (Protocols_ListProtocols). */
  protocol: Schema.String,
  listed: CountString
}).annotations({ identifier: "StatsProtocolFigure" })

/** The directory's figures of one UTC day (Stats_GetDirectoryDailyStats). */
export const DirectoryDailyStats = Schema.Struct({
  date: StatsDay,
  /** True for a closed day (before today, UTC): the figures never change; false for today (live). */
  closed: Schema.Boolean,
  agents: Schema.Struct({
    /** Listed at the end of the day (today: now). */
    listed: CountString,
    /** Of those, verificationState VERIFIED. */
    verified: CountString,
    /** Of those, first listed in the day. */
    new: CountString
  }),
  /** By network key, ascending; networks with no listed agent are left out. */
  networks: Schema.Array(NetworkFigure),
  /** By protocol key, ascending; protocols with no listed agent are left out. */
  protocols: Schema.Array(ProtocolFigure),
  runs: DirectoryRunFigures,
  feedback: FeedbackFigures,
  /** Orders of every workspace paid in the day. */
  orders: OrderFigures,
  /** Bounties of every workspace; absent from a closed day projected before bounties were counted (its first projection is kept). */
  bounties: Schema.optionalWith(BountyFigures, { exact: true })
}).annotations({ identifier: "DirectoryDailyStats" })
export type DirectoryDailyStats = typeof DirectoryDailyStats.Type

/** One agent's figures of one UTC day (Stats_GetAgentDailyStats). */
export const AgentDailyStats = Schema.Struct({
  date: StatsDay,
  entityPublicId: Uuid,
  /** True for a closed day (before today, UTC): the figures never change; false for today (live). */
  closed: Schema.Boolean,
  runs: Schema.Struct({
    started: CountString,
    succeeded: CountString,
    failed: CountString,
    /** Median (lower median) of `completedAt − startedAt` of the day's SUCCEEDED runs, ms; null without any. */
    latencyP50Ms: Schema.NullOr(Schema.Int.pipe(Schema.nonNegative()))
  }),
  feedback: FeedbackFigures,
  /** Accounts whose favorite the agent was at the end of the day (favorites still held; a removed one leaves no trace). */
  stars: CountString,
  /** Probes of the agent's stored endpoints in the day: answered (`ok`) and all. */
  endpointProbes: Schema.Struct({ ok: CountString, total: CountString }),
  /** Public activity items (Analytics_ListAgentActivity) that occurred in the day. */
  activityItems: CountString,
  /** Orders for the agent (an offer of its service) paid in the day. */
  orders: OrderFigures
}).annotations({ identifier: "AgentDailyStats" })
export type AgentDailyStats = typeof AgentDailyStats.Type

/** Query of the range lists: `from` and `to`, both included; at most 92 days, `from <= to <= today`. */
export const StatsRangeQuery = Schema.Struct({ from: StatsDay, to: StatsDay })

/** Path of the directory's day. */
export const DirectoryDayPath = Schema.Struct({ date: StatsDay })
/** Path of an agent's day. */
export const AgentDayPath = Schema.Struct({ entityPublicId: Uuid, date: StatsDay })

