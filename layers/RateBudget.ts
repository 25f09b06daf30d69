/**
 * Request budgets (spec §8 x-rate-cost; spec §5.1.2): each request charges its
 * operation's cost to a budget of its credential. The counting is
 * `@effect/experimental`'s `RateLimiter` (fixed window that extends with use: each
 * unit holds its place for `windowSeconds / limit`), on an in-process memory store,
 * or on Redis when `REDIS_URL` is set so that several processes share the budgets.
 *
 * Headers (IETF draft-ietf-httpapi-ratelimit-headers, structured fields):
 * `RateLimit-Policy: "<name>";q=<limit>;w=<window s>` and
 * `RateLimit: "<name>";r=<remaining>;t=<seconds until reset>`.
 *
 * The store failing (Redis down or slow) never fails a request: the charge is
 * skipped with a warning and no headers (fail open), so an outage of the budget
 * store does not become an outage of the API.
 */
import { RateLimiter } from "@effect/experimental"
import * as RedisStore from "@effect/experimental/RateLimiter/Redis"
import { createHash } from "node:crypto"
import { Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import { AppConfig, type Budget } from "./AppConfig.js"

/** The outcome of one charge. */
export interface Charged {
  /** The budget's name in the headers, e.g. `anonymous`. */
  readonly name: string
  readonly budget: Budget
  /** Units left in the window (0 when spent). */
  readonly remaining: number
  /** Seconds until the window resets (whole seconds, rounded up). */
  readonly resetSeconds: number
  /** Set when the charge did not fit: seconds until it would (for `Retry-After`). */
  readonly retryAfterSeconds: number | undefined
}

/** `RateLimit-Policy` item of a charge. */
export const policyHeaderItem = (c: Charged) => `"${c.name}";q=${c.budget.limit};w=${c.budget.windowSeconds}`

/** `RateLimit` item of a charge. */
export const limitHeaderItem = (c: Charged) => `"${c.name}";r=${c.remaining};t=${c.resetSeconds}`

/** How long a Redis charge may take before it is skipped (fail open), in milliseconds. */
export const ChargeTimeoutMs = 250

const seconds = (d: Duration.Duration) => Math.max(0, Math.ceil(Duration.toMillis(d) / 1000))

/** Request budgets. */
export class RateBudget extends Context.Tag("agent-directory/RateBudget")<RateBudget, {
  /**
   * Charges `cost` units to the budget `name` of `subject` (a client address, key
   * id, account id, ...; hashed before it reaches the store). A charge that does not
   * fit is not counted and reports `retryAfterSeconds`. `None` when the store failed.
   */
  readonly charge: (input: {
    readonly name: string
    readonly subject: string
    readonly budget: Budget
    readonly cost: number
  }) => Effect.Effect<Option.Option<Charged>>
}>() {}

/** At most this many spent budgets are remembered (see `make`); beyond it the memory is dropped, never wrong. */
const MaxRemembered = 10_000

const make = Effect.gen(function*() {
  const limiter = yield* RateLimiter.RateLimiter
  // A spent budget stays spent until its window resets: a charge that does not fit
  // is not counted, and other charges only add. So a refusal is remembered (per key
  // and cost, until the reset) and answered without asking the store again, which
  // spares the store a round trip and the limiter's error construction per request.
  const spent = new Map<string, { readonly until: number; readonly cost: number }>()
  const exceeded = (name: string, budget: Budget, retryAfterMs: number): Charged => ({
    name,
    budget,
    remaining: 0,
    resetSeconds: seconds(Duration.millis(retryAfterMs)),
    retryAfterSeconds: Math.max(1, seconds(Duration.millis(retryAfterMs)))
  })
  // the store key of a subject (a SHA-256 per request otherwise); bounded like `spent`
  const keys = new Map<string, string>()
  const keyOf = (name: string, subject: string) => {
    const id = `${name}\n${subject}`
    const known = keys.get(id)
    if (known !== undefined) return known
    const key = `${name}:${createHash("sha256").update(subject).digest("base64url").slice(0, 22)}`
    if (keys.size >= MaxRemembered) keys.clear()
    keys.set(id, key)
    return key
  }
  return RateBudget.of({
    charge: ({ budget, cost, name, subject }) => {
      const key = keyOf(name, subject)
      return Effect.clockWith((clock) => {
        const at = clock.unsafeCurrentTimeMillis()
        const known = spent.get(key)
        if (known !== undefined) {
          if (at < known.until && cost >= known.cost) return Effect.succeed(Option.some(exceeded(name, budget, known.until - at)))
          if (at >= known.until) spent.delete(key)
        }
        return limiter.consume({
          algorithm: "fixed-window",
          onExceeded: "fail",
          window: Duration.seconds(budget.windowSeconds),
          limit: budget.limit,
          key,
          tokens: cost
        }).pipe(
          Effect.map((r): Charged => ({
            name,
            budget,
            remaining: r.remaining,
            resetSeconds: seconds(r.resetAfter),
            retryAfterSeconds: undefined
          })),
          Effect.catchTag("RateLimiterError", (e) => {
            if (e.reason !== "Exceeded") return Effect.fail(e)
            if (spent.size >= MaxRemembered) spent.clear()
            spent.set(key, { until: at + Duration.toMillis(e.retryAfter), cost })
            return Effect.succeed(exceeded(name, budget, Duration.toMillis(e.retryAfter)))
          }),
          Effect.asSome,
          Effect.catchAll((e) => Effect.as(Effect.logWarning("request budget not charged (store unavailable)", e), Option.none()))
        )
      })
    }
  })
})

/** The Redis store's connection options from a `redis://[user:password@]host[:port][/db]` URL. */
const redisOptions = (url: Redacted.Redacted) => {
  const u = new URL(Redacted.value(url))
  return {
    host: u.hostname,
    port: u.port === "" ? 6379 : Number(u.port),
    ...(u.username !== "" ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password !== "" ? { password: decodeURIComponent(u.password) } : {}),
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    ...(u.protocol === "rediss:" ? { tls: {} } : {}),
    prefix: "agent-directory:budget:",
    // while Redis is unreachable or slow a command fails after one retry or ChargeTimeoutMs
    maxRetriesPerRequest: 1,
    commandTimeout: ChargeTimeoutMs
  }
}

/** Budgets on Redis (`REDIS_URL`) or, without it, in this process's memory. Requires `AppConfig`. */
export const RateBudgetLive = Layer.effect(RateBudget, make).pipe(
  Layer.provide(RateLimiter.layer),
  Layer.provide(Layer.unwrapEffect(Effect.map(AppConfig, (config) =>
    Option.match(config.redisUrl, {
      onNone: () => RateLimiter.layerStoreMemory,
      onSome: (url) => RedisStore.layerStore(redisOptions(url))
    })
  )))
)
