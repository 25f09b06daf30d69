/**
 * The engine's takeover timings (`ENGINE_SHARD_LOCK_REFRESH_MS`, `ENGINE_SHARD_LOCK_EXPIRATION_MS`,
 * `ENGINE_REFRESH_ASSIGNMENTS_MS`, `ENGINE_RUNNER_HEALTH_CHECK_MS`,
 * `ENGINE_ENTITY_TERMINATION_TIMEOUT_MS`; layers/AppConfig.ts), validated at start-up. That
 * they reach the engine is what test/runtime/RunFaults.test.ts relies on (a killed runner's
 * run taken over within its waits).
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { loadAppConfig } from "../../layers/AppConfig.js"

const load = (entries: ReadonlyArray<readonly [string, string]>) =>
  Effect.either(loadAppConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries)))))

describe("engine takeover settings", () => {
  it.effect("default to the library's timings", () =>
    Effect.gen(function*() {
      const loaded = yield* load([])
      expect(Either.isRight(loaded) && loaded.right.engine.takeover).toEqual({
        shardLockRefreshMs: 10_000,
        shardLockExpirationMs: 35_000,
        refreshAssignmentsMs: 3_000,
        runnerHealthCheckMs: 60_000,
        entityTerminationTimeoutMs: 15_000
      })
    }))

  it.effect("are read in milliseconds", () =>
    Effect.gen(function*() {
      const loaded = yield* load([
        ["ENGINE_SHARD_LOCK_REFRESH_MS", "1000"],
        ["ENGINE_SHARD_LOCK_EXPIRATION_MS", "3000"],
        ["ENGINE_REFRESH_ASSIGNMENTS_MS", "500"],
        ["ENGINE_RUNNER_HEALTH_CHECK_MS", "1000"],
        ["ENGINE_ENTITY_TERMINATION_TIMEOUT_MS", "2000"]
      ])
      expect(Either.isRight(loaded) && loaded.right.engine.takeover).toEqual({
        shardLockRefreshMs: 1000,
        shardLockExpirationMs: 3000,
        refreshAssignmentsMs: 500,
        runnerHealthCheckMs: 1000,
        entityTerminationTimeoutMs: 2000
      })
    }))

  it.effect("refuse values out of range or not integers, naming the setting", () =>
    Effect.gen(function*() {
      const bad: ReadonlyArray<readonly [string, string]> = [
        ["ENGINE_SHARD_LOCK_REFRESH_MS", "99"],
        ["ENGINE_SHARD_LOCK_REFRESH_MS", "fast"],
        ["ENGINE_SHARD_LOCK_EXPIRATION_MS", "999"],
        ["ENGINE_SHARD_LOCK_EXPIRATION_MS", "3600001"],
        ["ENGINE_REFRESH_ASSIGNMENTS_MS", "0"],
        ["ENGINE_RUNNER_HEALTH_CHECK_MS", "1.5"],
        ["ENGINE_ENTITY_TERMINATION_TIMEOUT_MS", "-1"]
      ]
      for (const [name, value] of bad) {
        const loaded = yield* load([[name, value]])
        expect(Either.isLeft(loaded) && String(loaded.left), `${name}=${value}`).toMatch(new RegExp(name))
      }
    }))

  it.effect("refuse a lock refresh not shorter than the lock expiration", () =>
    Effect.gen(function*() {
      for (const refresh of ["5000", "6000"]) {
        const loaded = yield* load([["ENGINE_SHARD_LOCK_REFRESH_MS", refresh], ["ENGINE_SHARD_LOCK_EXPIRATION_MS", "5000"]])
        expect(Either.isLeft(loaded) && String(loaded.left)).toMatch(
          /ENGINE_SHARD_LOCK_REFRESH_MS must be less than ENGINE_SHARD_LOCK_EXPIRATION_MS/
        )
      }
      // the defaults' refresh (10 s) against a shorter expiration
      const loaded = yield* load([["ENGINE_SHARD_LOCK_EXPIRATION_MS", "9000"]])
      expect(Either.isLeft(loaded) && String(loaded.left)).toMatch(/ENGINE_SHARD_LOCK_REFRESH_MS must be less than/)
    }))
})
