/**
 * Stats area contract (spec §9 "/api/v1/stats/* immutable projections"):
 * daily figures of the directory and of one agent, by day and by range of days. Public reads
 * (anonymous, or an API key with `agents:read`). Definitions: docs/stats.md.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { AgentNotFound, InvalidRequest } from "../../schema/errors.js"
import { Data } from "../../schema/envelope.js"
import {
  AgentDailyStats,
  AgentDayPath,
  DirectoryDailyStats,
  DirectoryDayPath,
  StatsRangeQuery
} from "./Schemas.js"
import { AgentPath } from "../../schema/agents.js"
import { operation } from "../api/operation.js"
import { StatsDayNotAvailable } from "./Errors.js"

const days = "A day is a UTC day, `YYYY-MM-DD` (a day that is not in the calendar, such as 2026-02-30, is 400 " +
  "`invalid-request` naming the field); it spans `[00:00Z, next day 00:00Z)`. Today is the UTC day of the server's clock."

const caching = "**Closed days are immutable projections.** A day before today is projected once (by the " +
  "`DailyStatsProjection` cron shortly after midnight UTC, or by the first read of it) and stored; every later answer " +
  "serves the stored figures byte for byte, even if evidence with a timestamp in that day is recorded afterwards. Its " +
  "answer carries `Cache-Control: public, max-age=31536000, immutable` and a strong `ETag`; `If-None-Match` naming it is " +
  "answered 304 with no body. The tag covers `data` and `meta.freshness` (the hash of " +
  "`{\"data\":…,\"freshness\":…}`), not `meta.requestId` and `meta.generatedAt`, which are new in every answer. " +
  "`meta.freshness` is `{projectedAt: when it was projected, sourceWatermark: the day's end}` (evidence timestamped " +
  "before the watermark is counted). A day before the directory's first data is projected like any other: zeros.\n\n" +
  "**Today** is computed live over the whole day as known now (what happened up to and at `now`) and never stored: `Cache-Control: public, max-age=60`, no `ETag`, " +
  "`closed: false`, `meta.freshness` = `{projectedAt: now, sourceWatermark: now}`."

const directoryFigures = "Figures (counts are decimal strings):\n\n" +
  "- `agents.listed`: agents listed in the directory at the end of the day (today: now): ACTIVE agents whose `listedAt` " +
  "is before it, and retired agents created before it and retired at or after it; `agents.verified`: of those, the ones " +
  "whose `verificationState` is VERIFIED (the state when the day is projected: verification keeps no history); " +
  "`agents.new`: of those, the ones first listed in the day.\n" +
  "- `networks`: per network key, the listed agents holding a registry-bound identity on it recorded before the day's " +
  "end (as Agents_ListAgents' `networks` filter counts them); `protocols`: per protocol key, the listed agents speaking " +
  "it (Agents_ListAgents' `protocols`). Both ascending by key; a key with no listed agent is left out.\n" +
  "- `runs`: `started` (runs whose `startedAt` is in the day), `succeeded` (ended SUCCEEDED, `completedAt` in the day), " +
  "`failed` (ended FAILED or TIMED_OUT, `completedAt` in the day). Playground runs are not counted.\n" +
  "- `feedback`: `created` (feedback whose `createdAt` is in the day, whatever its state now) and `meanRatingPpm` (their " +
  "mean `ratingPpm`, rounded; null when none).\n" +
  "- `orders`: `paid` (orders of every workspace whose `paidAt` is in the day, whatever their state now) and " +
  "`revenue`: per asset (ascending asset id), the sum of their `totalUnits` (minor units, decimal string)."

const agentFigures = "Figures (counts are decimal strings):\n\n" +
  "- `runs`: the agent's runs as the directory counts them (`started`, `succeeded`, `failed`; playground runs not " +
  "counted) and `latencyP50Ms`: the lower median of `completedAt − startedAt` of its runs that ended SUCCEEDED in the " +
  "day, in milliseconds (null when none).\n" +
  "- `feedback`: feedback about the agent created in the day, and its mean `ratingPpm` (null when none).\n" +
  "- `stars`: accounts holding the agent as a favorite since before the day's end (a removed favorite leaves no trace, " +
  "so a closed day counts the favorites held when it was projected).\n" +
  "- `endpointProbes`: probes of the agent's stored endpoints in the day (`ok`: answered; `total`: all).\n" +
  "- `activityItems`: public activity items (Analytics_ListAgentActivity) that occurred in the day.\n" +
  "- `orders`: orders for the agent (of an offer of its service) paid in the day, and their revenue by asset, " +
  "counted as the directory counts them.\n\n" +
  "Any agent of the directory has daily figures, listed or not (like Agents_GetAgent); an unknown id is 404 " +
  "`agent-not-found`."

const range = "`from` and `to` (both included, `YYYY-MM-DD`): `from` ≤ `to` ≤ today and at most 92 days; otherwise " +
  "400 `invalid-request` naming the field (`/to` after today; `/from` after `to` or more than 92 days before it). One " +
  "item per day, in date order; a day with no activity is there with zeros. Closed days are served from storage " +
  "(projected first if they were not yet); when the range ends today, today is the last item, live. A range of closed " +
  "days only is immutable like a closed day (`Cache-Control: public, max-age=31536000, immutable`, a strong `ETag` over " +
  "`data` and `meta.freshness`, 304 on `If-None-Match`); a range ending today is cached like today (`max-age=60`, no " +
  "`ETag`). `meta.freshness`: the latest `projectedAt` of its days and the last day's watermark."

export class StatsApi extends HttpApiGroup.make("Stats")
  .add(
    HttpApiEndpoint.get("getDirectoryDailyStats", "/api/v1/stats/directory/daily/:date")
      .setPath(DirectoryDayPath)
      .addSuccess(Data(DirectoryDailyStats))
      .pipe(
        operation({
          id: "Stats_GetDirectoryDailyStats",
          auth: "public",
          cache: "public-catalog",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "The directory's figures of one UTC day: agents, networks, protocols, runs, feedback",
          description: `${days} A day after today is 404 \`stats-day-not-available\`.\n\n${directoryFigures}\n\n${caching}`,
          errors: [StatsDayNotAvailable]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listDirectoryDailyStats", "/api/v1/stats/directory/daily")
      .setUrlParams(StatsRangeQuery)
      .addSuccess(Data(Schema.Array(DirectoryDailyStats).pipe(Schema.maxItems(92))))
      .pipe(
        operation({
          id: "Stats_ListDirectoryDailyStats",
          auth: "public",
          cache: "public-catalog",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 500, 503],
          summary: "The directory's daily figures over a range of at most 92 days",
          description: `The figures of Stats_GetDirectoryDailyStats, one item per day. ${days}\n\n${range}`,
          errors: [InvalidRequest]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getAgentDailyStats", "/api/v1/stats/agents/:entityPublicId/daily/:date")
      .setPath(AgentDayPath)
      .addSuccess(Data(AgentDailyStats))
      .pipe(
        operation({
          id: "Stats_GetAgentDailyStats",
          auth: "public",
          cache: "public-catalog",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "One agent's figures of one UTC day: runs and latency, feedback, stars, endpoint probes, activity",
          description: `${days} A day after today is 404 \`stats-day-not-available\`.\n\n${agentFigures}\n\n${caching}`,
          errors: [AgentNotFound, StatsDayNotAvailable]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listAgentDailyStats", "/api/v1/stats/agents/:entityPublicId/daily")
      .setPath(AgentPath)
      .setUrlParams(StatsRangeQuery)
      .addSuccess(Data(Schema.Array(AgentDailyStats).pipe(Schema.maxItems(92))))
      .pipe(
        operation({
          id: "Stats_ListAgentDailyStats",
          auth: "public",
          cache: "public-catalog",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "One agent's daily figures over a range of at most 92 days",
          description: `The figures of Stats_GetAgentDailyStats, one item per day. ${days}\n\n${range}`,
          errors: [AgentNotFound, InvalidRequest]
        })
      )
  )
  .annotate(OpenApi.Description, "Stats: daily figures of the directory and its agents, immutable once the day is closed")
{}
