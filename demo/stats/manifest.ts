/**
 * The stats area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts). The days are closed days of the demo
 * data (2026-03-23, `demoTime(81)`: the demo chat's runs; the week around it), so the
 * answers are immutable projections.
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoRuntimeAgents } from "../runtime/data.js"

/** A closed demo day with runs of the demo chat (day 81 of the demo data). */
export const DemoStatsDay = "2026-03-23"

/** The stats area's demo requests, by operationId. */
export const StatsManifest = {
  Stats_GetDirectoryDailyStats: { as: "anonymous", path: { date: DemoStatsDay }, query: {}, body: null },
  Stats_ListDirectoryDailyStats: { as: "apiKey:public", path: {}, query: { from: "2026-03-20", to: "2026-03-26" }, body: null },
  Stats_GetAgentDailyStats: {
    as: "anonymous",
    path: { entityPublicId: DemoRuntimeAgents.configured, date: DemoStatsDay },
    query: {},
    body: null
  },
  Stats_ListAgentDailyStats: {
    as: "anonymous",
    path: { entityPublicId: DemoRuntimeAgents.configured },
    query: { from: "2026-03-20", to: "2026-03-26" },
    body: null
  }
} satisfies Record<string, ManifestOperation>
