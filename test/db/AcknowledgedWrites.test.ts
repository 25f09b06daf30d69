/**
 * No acknowledged write is lost: sign-ins (each writes a session)
 * run while every database connection is cut mid-traffic. Each request is either
 * acknowledged (200) and its session is in the database afterwards, or answered
 * `dependency-unavailable`. PostgreSQL run only: the embedded database has no
 * connection to cut (it runs in-process).
 */
import { WorkflowEngine } from "@effect/workflow"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import Pg from "pg"
import type { DbLimits } from "../../layers/AppConfig.js"
import { DbServer } from "../../layers/Db.js"
import { IdsSequence } from "../../layers/Ids.js"
import { migrate } from "../../src/db/migrate.js"
import { HttpLive } from "../../src/server.js"
import { testConfigLayer } from "../support/config.js"
import { call } from "../support/http.js"
import { tcpProxy } from "../support/TcpProxy.js"
import { cloneTemplate } from "../support/TestServer.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { onPostgres } from "../support/database.js"

const limits: DbLimits = { connectTimeoutMs: 2_000, statementTimeoutMs: 2_000, poolMax: 4, startupTimeoutMs: 5_000 }

describe("acknowledged writes survive connections cut mid-traffic", () => {
  it.live.skipIf(!onPostgres)("every 200 sign-in's session is stored; the others are dependency-unavailable", () =>
    Effect.gen(function*() {
      const url = new URL(yield* cloneTemplate())
      const proxy = yield* tcpProxy(url.hostname, Number(url.port || "5432"))
      const proxied = new URL(url)
      proxied.hostname = "127.0.0.1"
      proxied.port = String(proxy.port)
      const server = HttpLive.pipe(
        Layer.provideMerge(NodeHttpServer.layerTest),
        // no background work here: an in-memory engine stands in for the durable one
        Layer.provide(WorkflowEngine.layerMemory),
        Layer.provide(DbServer(Redacted.make(proxied.toString()), migrate, limits)),
        Layer.provide(IdsSequence("0000000d")),
        Layer.provide(testConfigLayer({ db: limits })),
        Layer.provide(Logger.minimumLogLevel(LogLevel.None))
      )
      const { email, password } = DemoAccounts.member
      const replies = yield* Effect.gen(function*() {
        let done = 0
        return yield* Effect.forEach(
          Array.from({ length: 30 }, (_, i) => i),
          () =>
            call("POST", "/api/v1/auth/sign-in", { body: { email, password } }).pipe(
              Effect.tap(() => {
                if (++done === 8 || done === 16) proxy.cut()
              })
            ),
          { concurrency: 6 }
        )
      }).pipe(Effect.provide(server))

      const acknowledged = replies.filter((r) => r.status === 200).map((r) => r.body.data.sessionId as string)
      for (const r of replies.filter((r) => r.status !== 200)) {
        expect(r.status, r.text).toBe(503)
        expect(r.body.type).toBe("https://agent-directory.dev/problems/dependency-unavailable")
      }
      expect(acknowledged.length).toBeGreaterThan(0)
      const stored = yield* Effect.promise(async () => {
        const client = new Pg.Client({ connectionString: url.toString() })
        await client.connect()
        try {
          const result = await client.query<{ id: string }>("SELECT id::text FROM sessions WHERE id = ANY($1::uuid[])", [acknowledged])
          return new Set(result.rows.map((r) => r.id))
        } finally {
          await client.end()
        }
      })
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([])
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
