/** Helpers of the analytics tests: context tokens, waiting for exports, ingestion calls. */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { type ContextClaims, mintContextToken } from "../../../src/social/analytics/ContextToken.js"
import { testConfig } from "../../support/config.js"
import { call, type CallOptions } from "../../support/http.js"
import { DemoAgents } from "../../../demo/agents/seed.js"
import { until, waitFor } from "../../support/waitFor.js"

/** A context token signed with the test configuration's key (default: a visitor of Atlas consenting to traffic). */
export const contextToken = (claims: Partial<ContextClaims> = {}) =>
  mintContextToken(Redacted.value(testConfig().keys.analyticsContext), {
    sub: "visitor-1",
    agent: DemoAgents[0].id,
    consent: ["traffic"],
    exp: Date.UTC(2030, 0, 1) / 1000,
    ...claims
  })

/** POST /api/v1/analytics/events. */
export const ingest = (body: unknown, options: CallOptions = {}) => call("POST", "/api/v1/analytics/events", { body, ...options })

/**
 * Waits (real time, at most `timeoutMs`) until export `id`'s stored row satisfies
 * `done` (default: built or failed, i.e. past REQUESTED, QUEUED and BUILDING) on the
 * test server's engine; returns its state and whether its file is still stored.
 */
export const awaitExport = (
  id: string,
  done: (row: { readonly state: string; readonly hasFile: boolean }) => boolean = (row) =>
    !["REQUESTED", "QUEUED", "BUILDING"].includes(row.state),
  timeoutMs = 20_000
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const read = Effect.map(sql<{ state: string; hasFile: boolean }>`
        SELECT state, file_content IS NOT NULL AS "hasFile" FROM analytics_exports WHERE id = ${id}`, ([row]) => row)
    return yield* waitFor(
      `export ${id} to be done`,
      until(read, (row) => row !== undefined && done(row), (row) => `${row?.state}`),
      timeoutMs,
      25
    ) as Effect.Effect<{ readonly state: string; readonly hasFile: boolean }>
  }).pipe(Effect.orDie)
