/**
 * The spent-budget memory of `layers/RateBudget.ts`: a refused charge is remembered
 * until the window resets and answered without the store, but only for charges at
 * least as large as the refused one; a smaller charge that still fits goes through.
 */
import { expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { ClockManual, makeManualClock } from "../../layers/Clock.js"
import { RateBudget, RateBudgetLive } from "../../layers/RateBudget.js"
import { testConfigLayer } from "../support/config.js"

const clock = makeManualClock(new Date("2026-01-01T00:00:00.000Z"))
const Live = RateBudgetLive.pipe(Layer.provide(testConfigLayer()), Layer.provideMerge(ClockManual(clock)))
const budget = { limit: 5, windowSeconds: 60 }

/** Charges `cost` to one subject's budget: units left, or "refused". */
const charge = (cost: number) =>
  Effect.flatMap(RateBudget, (b) => b.charge({ name: "test", subject: "client-1", budget, cost })).pipe(
    Effect.map((c) => {
      const charged = Option.getOrThrow(c)
      return charged.retryAfterSeconds === undefined ? charged.remaining : "refused"
    })
  )

it.effect("a refusal is remembered for charges as large, never for a smaller one that fits", () =>
  Effect.gen(function*() {
    expect(yield* charge(3)).toBe(2)
    expect(yield* charge(3)).toBe("refused") // remembered: cost 3
    expect(yield* charge(1)).toBe(1) // smaller: asks the store, fits
    expect(yield* charge(3)).toBe("refused")
    expect(yield* charge(2)).toBe("refused") // 1 left: refused by the store, remembered: cost 2
    expect(yield* charge(1)).toBe(0)
    expect(yield* charge(1)).toBe("refused")
    clock.advance(61_000)
    expect(yield* charge(3)).toBe(2) // the window reset: the memory is gone
  }).pipe(Effect.provide(Live)))
