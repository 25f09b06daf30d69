/**
 * Demo data: loaded into an empty embedded database at start-up only
 * in development; `npm run db:seed` refuses DEPLOYMENT_ENV=production.
 */
import { PGlite } from "@electric-sql/pglite"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { spawnSync } from "node:child_process"
import { DbEmbedded, embeddedExtensions } from "../../layers/Db.js"
import { IdsSequence } from "../../layers/Ids.js"
import { migrate } from "../../src/db/migrate.js"
import { startupLive } from "../../src/startup.js"
import { seedDemoData } from "../../demo/seed.js"
import { testConfigLayer } from "../support/config.js"

const accountsAfterStartup = (pglite: PGlite, environment: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM accounts`
    return row!.n
  }).pipe(
    Effect.provide(startupLive(seedDemoData).pipe(Layer.provideMerge(Layer.mergeAll(
      DbEmbedded({ dataDir: "memory://", pglite }, migrate),
      IdsSequence("0000000c"),
      testConfigLayer({ environment })
    )))),
    Effect.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )

describe("demo data at start-up", () => {
  it.live("an empty embedded database gets none outside development, the demo set in development", () =>
    Effect.gen(function*() {
      const pglite = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const db = new PGlite({ extensions: embeddedExtensions })
          await db.waitReady
          return db
        }),
        (db) => Effect.promise(() => db.close())
      )
      expect(yield* accountsAfterStartup(pglite, "production")).toBe(0)
      expect(yield* accountsAfterStartup(pglite, "staging")).toBe(0)
      expect(yield* accountsAfterStartup(pglite, "development")).toBeGreaterThan(0)
    }).pipe(Effect.scoped), { timeout: 180_000 })
})

describe("npm run db:seed", () => {
  it("refuses DEPLOYMENT_ENV=production with one line and exit code 1", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "demo/cli/seed.ts"], {
      env: { ...process.env, DEPLOYMENT_ENV: "production", DATA_DIR: "memory://" },
      encoding: "utf8",
      timeout: 60_000
    })
    expect(run.status).toBe(1)
    expect(run.stderr.trim().split("\n")).toEqual([
      "Refusing to load the demo data set (published passwords) with DEPLOYMENT_ENV=production."
    ])
  }, 60_000)
})
