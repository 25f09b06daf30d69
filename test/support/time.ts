/** Waiting in tests. */
import { Effect } from "effect"

/**
 * Pauses `ms` milliseconds of real time, whatever clock the fiber has (`it.effect`
 * runs a TestClock, test servers a manual clock): for waiting on the engine's work.
 */
export const pause = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))
