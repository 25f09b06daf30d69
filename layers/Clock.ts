/**
 * Time for the domain. All code reads time through Effect's `Clock` (never
 * `Date.now()`), so tests control it: `TestClock` in `it.effect` tests, or
 * {@link ClockManual} for HTTP-level tests where a server must keep running.
 */
import { Clock, Effect, Layer } from "effect"

/**
 * The current time as a `Date` (from Effect `Clock`). Read once per step several times
 * a request: the fiber's clock read synchronously (two runtime operations, not a mapped
 * `Clock.currentTimeMillis`).
 */
export const now: Effect.Effect<Date> = Effect.clockWith((clock) => Effect.sync(() => new Date(clock.unsafeCurrentTimeMillis())))

/** A clock whose time only moves when told to. */
export interface ManualClock extends Clock.Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  readonly advance: (ms: number) => void
  /** Sets the clock to an absolute time. */
  readonly set: (at: Date) => void
}

/** Makes a {@link ManualClock} starting at `start`; `sleep` still waits in real time. */
export const makeManualClock = (start: Date): ManualClock => {
  let ms = start.getTime()
  const real = Clock.make()
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => ms,
    currentTimeMillis: Effect.sync(() => ms),
    unsafeCurrentTimeNanos: () => BigInt(ms) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(ms) * 1_000_000n),
    sleep: (d) => real.sleep(d),
    advance: (delta) => {
      ms += delta
    },
    set: (at) => {
      ms = at.getTime()
    }
  }
}

/** Layer installing `clock` as the default Effect clock. */
export const ClockManual = (clock: ManualClock): Layer.Layer<never> => Layer.setClock(clock)
