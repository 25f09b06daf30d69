/** `ENDPOINT_PROBE_INTERVAL_MINUTES` and `ENDPOINT_PROBE_TIMEOUT_MS` (src/endpointHealth/Config.ts), validated at start-up; the cron they give. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Cron, Effect, Either } from "effect"
import { endpointProbeSettings } from "../../src/endpointHealth/Config.js"
import { probeCron } from "../../src/endpointHealth/Cron.js"

const load = (entries: ReadonlyArray<readonly [string, string]>) =>
  Effect.either(endpointProbeSettings.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries)))))

describe("endpoint probe settings", () => {
  it.effect("default to a round every 5 minutes and 5000 ms per probe", () =>
    Effect.gen(function*() {
      const loaded = yield* load([])
      expect(Either.isRight(loaded) && loaded.right.endpointProbes).toEqual({ intervalMinutes: 5, timeoutMs: 5000 })
    }))

  it.effect("accept 0 (off) or a divisor of 60, and a timeout of 100..60000 ms; refuse others naming the setting", () =>
    Effect.gen(function*() {
      for (const minutes of ["0", "1", "15", "60"]) {
        const loaded = yield* load([["ENDPOINT_PROBE_INTERVAL_MINUTES", minutes]])
        expect(Either.isRight(loaded) && loaded.right.endpointProbes.intervalMinutes).toBe(Number(minutes))
      }
      for (const minutes of ["7", "90", "-5", "five"]) {
        const loaded = yield* load([["ENDPOINT_PROBE_INTERVAL_MINUTES", minutes]])
        expect(Either.isLeft(loaded) && String(loaded.left)).toMatch(/ENDPOINT_PROBE_INTERVAL_MINUTES/)
      }
      const timeout = yield* load([["ENDPOINT_PROBE_TIMEOUT_MS", "2500"]])
      expect(Either.isRight(timeout) && timeout.right.endpointProbes.timeoutMs).toBe(2500)
      for (const ms of ["99", "60001"]) {
        const loaded = yield* load([["ENDPOINT_PROBE_TIMEOUT_MS", ms]])
        expect(Either.isLeft(loaded) && String(loaded.left)).toMatch(/ENDPOINT_PROBE_TIMEOUT_MS/)
      }
    }))

  it("the cron of an interval fires every N minutes UTC; 60 is hourly", () => {
    const at = new Date("2026-06-01T10:03:00.000Z")
    expect(Cron.next(probeCron(5), at).toISOString()).toBe("2026-06-01T10:05:00.000Z")
    expect(Cron.next(probeCron(20), at).toISOString()).toBe("2026-06-01T10:20:00.000Z")
    expect(Cron.next(probeCron(60), at).toISOString()).toBe("2026-06-01T11:00:00.000Z")
  })
})
