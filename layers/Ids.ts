/**
 * Identifier generation. Public IDs are UUIDs (spec §2.1): version 7 (time-ordered)
 * in production, a deterministic sequence in tests.
 */
import { Context, Effect, Layer } from "effect"
import { v7 as uuidv7 } from "uuid"

/** Generates public IDs. */
export class Ids extends Context.Tag("agent-directory/Ids")<Ids, {
  /** A new UUID (lowercase, 36 chars). */
  readonly next: Effect.Effect<string>
}>() {}

/** UUIDv7 from the `uuid` package. */
export const IdsLive = Layer.succeed(Ids, { next: Effect.sync(() => uuidv7()) })

/**
 * Deterministic UUIDs `xxxxxxxx-0000-7000-8000-<n>` counting up from 1, with a
 * per-layer `prefix` (8 hex digits) so separate sequences never collide.
 */
export const IdsSequence = (prefix = "0000000f"): Layer.Layer<Ids> =>
  Layer.sync(Ids, () => {
    let n = 0
    return {
      next: Effect.sync(() => `${prefix}-0000-7000-8000-${(++n).toString(16).padStart(12, "0")}`)
    }
  })
