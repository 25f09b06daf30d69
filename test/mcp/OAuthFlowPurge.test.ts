/**
 * The purge of expired MCP OAuth flows on the durable engine (src/mcp/oauth/Purges.ts):
 * flows begun through MCP_BeginMcpOAuth (HTTP stack), the `PurgeMcpOAuthFlows`
 * ClusterCron (every 15 minutes) on the test server's manual clock; the test waits for
 * it in real time (bounded). Only flows expired at the tick go.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { purgeExpiredOAuthFlows } from "../../src/mcp/oauth/Purges.js"
import { McpRepo } from "../../src/mcp/Repo.js"
import { DemoMcpConnections, DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { call, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

const server = makeTestServer()
const minute = 60_000

/** Real time, whatever clock the test fiber has (`it.effect` runs a TestClock). */
const pause = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

const beginOAuth = Effect.gen(function*() {
  const path = `/api/v1/agents/${DemoRuntimeAgents.configured}/mcp/connections/${DemoMcpConnections.crm.id}/oauth`
  const reply = yield* call("POST", path, { body: { scopes: ["crm.read"] }, session: yield* signIn("owner") })
  expect(reply.status, reply.text).toBe(200)
  return reply.body.data.expiresAt as string
})

/** The stored flows' expiries, oldest first. */
const flowExpiries = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ expiresAt: string }>`SELECT api_ts(expires_at) AS "expiresAt" FROM mcp_oauth_flows ORDER BY expires_at`.pipe(
    Effect.map((rows) => rows.map((r) => r.expiresAt))
  )).pipe(Effect.orDie)

/** Waits (real time, at most `timeoutMs`) until the stored expiries are `expected`; dies when they are not in time. */
const awaitFlows = (expected: ReadonlyArray<string>, timeoutMs = 20_000) =>
  Effect.gen(function*() {
    return yield* waitFor(
      `flows ${JSON.stringify(expected)}`,
      until(flowExpiries, (expiries) => JSON.stringify(expiries) === JSON.stringify(expected)),
      timeoutMs,
      25
    )
  })

const iso = (ms: number) => new Date(TestEpoch.getTime() + ms).toISOString()

layer(server.layer)("purge of expired MCP OAuth flows (ClusterCron on the manual clock)", (it) => {
  it.effect("each quarter-hour tick deletes the flows expired at its time, and only those", () =>
    Effect.gen(function*() {
      expect(yield* flowExpiries).toEqual([])
      const first = yield* beginOAuth // 00:00, expires 00:10
      server.clock.advance(10 * minute)
      const second = yield* beginOAuth // 00:10, expires 00:20
      expect([first, second]).toEqual([iso(10 * minute), iso(20 * minute)])
      // nothing is due before 00:15: both stay
      yield* pause(300)
      expect(yield* flowExpiries).toEqual([first, second])

      // 00:16: the 00:15 tick deletes the flow expired at 00:10, not the one valid until 00:20
      server.clock.advance(6 * minute)
      yield* awaitFlows([second])
      const third = yield* beginOAuth // 00:16, expires 00:26
      yield* pause(300)
      expect(yield* flowExpiries).toEqual([second, third])

      // 00:31: the 00:30 tick deletes both
      server.clock.advance(15 * minute)
      yield* awaitFlows([])
    }))

  it.effect("a purge run again at the same time deletes nothing more; an unexpired flow stays", () =>
    Effect.gen(function*() {
      const kept = yield* beginOAuth
      const sql = yield* SqlClient.SqlClient
      const clockAt = new Date(server.clock.unsafeCurrentTimeMillis())
      // an expired flow the next tick has not reached yet
      yield* sql`UPDATE mcp_oauth_flows SET expires_at = ${clockAt} WHERE expires_at = ${new Date(kept)}`
      const later = yield* beginOAuth
      const purge = purgeExpiredOAuthFlows.pipe(Effect.provide(McpRepo.Default), Effect.withClock(server.clock))
      expect(yield* purge).toBe(1)
      expect(yield* purge).toBe(0)
      expect(yield* flowExpiries).toEqual([later])
    }))
})
