/**
 * Demo data of the upstream sources: the official MCP Registry as a source, not synced yet (its first
 * sync far ahead, so no scheduled sync of the demo data runs unasked). Id group 0xc0.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { demoId, demoTime } from "../../common.js"

/** The demo upstream sources. */
export const DemoUpstreamSources = {
  official: {
    id: demoId(0xc0, 1), kind: "MCP_REGISTRY", displayName: "Official MCP Registry",
    baseUrl: "https://registry.modelcontextprotocol.io", version: 1
  }
} as const

/** Inserts the demo upstream sources. Fails with `SqlError`. */
export const seedUpstreamSources = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const s = DemoUpstreamSources.official
  yield* sql`INSERT INTO upstream_sources ${
    sql.insert({
      id: s.id,
      kind: s.kind,
      display_name: s.displayName,
      base_url: s.baseUrl,
      domains: "[]",
      sync_interval_seconds: 3600,
      state: "ACTIVE",
      version: s.version,
      next_sync_at: new Date("2030-01-01T00:00:00.000Z"),
      created_at: demoTime(50),
      updated_at: demoTime(50)
    })
  }`
})
