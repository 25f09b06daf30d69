/**
 * Database failures through the real HTTP stack (spec §7): refused,
 * dropped mid-query, frozen before or after the handshake. Each is answered within
 * the configured timeouts by `dependency-unavailable` with `Retry-After`: 503 where
 * the operation lists 503, else 500 (the status list is authoritative). The
 * database is a fake TCP server, so these mean the same on both test runs.
 */
import { WorkflowEngine } from "@effect/workflow"
import { NodeHttpServer } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Logger, LogLevel, Redacted } from "effect"
import type { DbLimits } from "../../layers/AppConfig.js"
import { DbServer, serverPool } from "../../layers/Db.js"
import { IdsSequence } from "../../layers/Ids.js"
import { migrate } from "../../src/db/migrate.js"
import { HttpLive } from "../../src/server.js"
import { testConfigLayer } from "../support/config.js"
import { closedPort, fakeDatabase, type FakeMode } from "../support/FakeDatabase.js"
import { call, expectProblem } from "../support/http.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"

const limits: DbLimits = { connectTimeoutMs: 400, statementTimeoutMs: 400, poolMax: 2, startupTimeoutMs: 1_500 }
const urlOf = (port: number) => Redacted.make(`postgres://test@127.0.0.1:${port}/none`)

interface Line {
  readonly level: string
  readonly message: string
}

const capture = (lines: Array<Line>) =>
  Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ logLevel, message }) => {
      lines.push({ level: logLevel.label, message: [message].flat().map(String).join(" ") })
    })
  )

/** The server on a database at `port` that is already broken (no start-up wait, no migrations). */
const serverOn = (port: number, lines: Array<Line> = []) =>
  HttpLive.pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    // no background work here: an in-memory engine stands in for the durable one
    Layer.provide(WorkflowEngine.layerMemory),
    Layer.provide(PgClient.layerFromPool({ acquire: serverPool(urlOf(port), limits) })),
    Layer.provide(IdsSequence("0000000b")),
    Layer.provide(testConfigLayer({ db: limits })),
    Layer.provide(Layer.mergeAll(capture(lines), Logger.minimumLogLevel(LogLevel.Info)))
  )

const session = { cookie: "session=" + "a".repeat(43), csrf: "x", accountId: "", sessionId: "" }

const expectUnavailable = (reply: Parameters<typeof expectProblem>[0], status: 500 | 503) => {
  expectProblem(reply, status, "dependency-unavailable")
  expect(reply.headers["retry-after"]).toBe("5")
}

/** Answers within the 0.4 s timeouts plus generous slack for a loaded 2-core machine: it never hangs. */
const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = Date.now()
    const a = yield* effect
    expect(Date.now() - start).toBeLessThan(6_000)
    return a
  })

const modes: ReadonlyArray<readonly [string, Effect.Effect<number, never, import("effect").Scope.Scope>]> = [
  ["refused", closedPort],
  ...(["drop", "silent", "hang"] as const).map((mode: FakeMode) => [mode, fakeDatabase(mode)] as const)
]

describe("a database that is unavailable", () => {
  for (const [name, database] of modes) {
    it.live(`${name}: 503 where listed (Protocols_ListProtocols), 500 with the same type where not`, () =>
      Effect.gen(function*() {
        const port = yield* database
        yield* Effect.gen(function*() {
          expectUnavailable(yield* timed(call("GET", "/api/v1/protocols")), 503)
          // Workspaces_GetWorkspace and Accounts_RevokeSession list no 503
          expectUnavailable(yield* timed(call("GET", `/api/v1/workspaces/${DemoWorkspaces.acme.id}`, { session })), 500)
          expectUnavailable(yield* timed(call("DELETE", "/api/v1/me/sessions/some-session", { session })), 500)
        }).pipe(Effect.provide(serverOn(port)))
      }).pipe(Effect.scoped), { timeout: 30_000 })
  }

  it.live("logs one ERROR per outage, no stack per request", () =>
    Effect.gen(function*() {
      const port = yield* fakeDatabase("drop")
      const lines: Array<Line> = []
      yield* Effect.gen(function*() {
        for (let i = 0; i < 5; i++) expectUnavailable(yield* call("GET", "/api/v1/protocols"), 503)
      }).pipe(Effect.provide(serverOn(port, lines)))
      const errors = lines.filter((l) => l.level === "ERROR")
      expect(errors.map((l) => l.message)).toEqual(["database unavailable"])
      expect(lines.some((l) => l.message.includes("request failed"))).toBe(false)
    }).pipe(Effect.scoped), { timeout: 30_000 })
})

describe("starting while the database is down", () => {
  it.live("retries with one warning per attempt, then fails with one line", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const lines: Array<Line> = []
      const exit = yield* Layer.build(DbServer(urlOf(port), migrate, limits)).pipe(
        Effect.scoped,
        Effect.provide(capture(lines)),
        Effect.exit
      )
      expect(Exit.isFailure(exit)).toBe(true)
      const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      const message = error instanceof Error ? error.message : ""
      expect(message).not.toContain("\n")
      const attempts = lines.filter((l) => l.level === "WARN" && l.message.includes("unavailable (attempt"))
      expect(attempts.length).toBeGreaterThanOrEqual(2)
      expect(message).toContain(`unavailable after ${attempts.length} attempts`)
      expect(message).toContain("DB_STARTUP_TIMEOUT_MS")
    }), { timeout: 30_000 })
})
