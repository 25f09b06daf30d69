/**
 * Demo data of the partner job sources (spec §2.18) in every state, and its seed step.
 * Id group 0x93.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { demoId as id, demoTime } from "../../common.js"

/** Partner job sources (spec §2.18) in every state. */
export const DemoJobSources = {
  active: {
    id: id(0x93, 1), code: "gigboard", displayName: "GigBoard", state: "ACTIVE", failureCount: 0, version: 4,
    endpointUrl: "https://partners.gigboard.example/v1/agent-jobs.json", pollIntervalSeconds: 900, requestTimeoutMs: 5000
  },
  degraded: {
    id: id(0x93, 2), code: "botbounties", displayName: "Bot Bounties", state: "DEGRADED", failureCount: 4, version: 2,
    endpointUrl: "https://feeds.botbounties.example/jobs", pollIntervalSeconds: 3600, requestTimeoutMs: 10000
  },
  paused: {
    id: id(0x93, 3), code: "quietjobs", displayName: "Quiet Jobs", state: "PAUSED", failureCount: 0, version: 3,
    endpointUrl: "https://quietjobs.example/feed", pollIntervalSeconds: 86400, requestTimeoutMs: 30000
  },
  disabled: {
    id: id(0x93, 4), code: "oldmarket", displayName: "Old Market", state: "DISABLED", failureCount: 12, version: 7,
    endpointUrl: "https://oldmarket.example/api/jobs", pollIntervalSeconds: 600, requestTimeoutMs: 1000
  }
} as const
export type DemoJobSourceName = keyof typeof DemoJobSources
/** Inserts the demo partner job sources. Fails with `SqlError`. */
export const seedPartnerJobSources = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO partner_job_sources ${
    sql.insert(Object.values(DemoJobSources).map((s, i) => {
      const syncing = s.state === "ACTIVE" || s.state === "DEGRADED"
      return {
        id: s.id,
        code: s.code,
        display_name: s.displayName,
        website_url: new URL(s.endpointUrl).origin,
        endpoint_url: s.endpointUrl,
        adapter_version: "feed-v1",
        response_schema_version: 1,
        poll_interval_seconds: s.pollIntervalSeconds,
        request_timeout_ms: s.requestTimeoutMs,
        state: s.state,
        // far enough ahead that no scheduled sync of the demo data runs unasked
        next_sync_at: syncing ? new Date("2030-01-01T00:00:00.000Z") : null,
        last_successful_sync_at: s.state === "ACTIVE" ? demoTime(120 + i) : demoTime(100 + i),
        failure_count: s.failureCount,
        last_failure: s.failureCount > 0 ? "timeout" : null,
        version: s.version,
        configuration_version: String(i + 1),
        updated_at: demoTime(120 + i)
      }
    }))
  }`
})
