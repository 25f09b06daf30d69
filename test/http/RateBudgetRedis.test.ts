/**
 * The shared budget store (REDIS_URL): two independent budget layers — as two server
 * processes would have — spend one budget, and a server on Redis refuses with 429.
 * Runs only when REDIS_URL is set (`.ci/run` sets it for the local Redis).
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { Redis } from "ioredis"
import { randomUUID } from "node:crypto"
import { RateBudget, RateBudgetLive } from "../../layers/RateBudget.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { testConfig, testConfigLayer } from "../support/config.js"
import { makeTestServer } from "../support/TestServer.js"

const redisUrl = process.env["REDIS_URL"]

/** A budget layer of its own (its own Redis connection), like one server process. */
const processBudget = () =>
  Effect.gen(function*() {
    const context = yield* Layer.build(RateBudgetLive.pipe(
      Layer.provide(testConfigLayer({ redisUrl: Option.some(Redacted.make(redisUrl!)) }))
    ))
    return Context.get(context, RateBudget)
  })

if (redisUrl === undefined) {
  describe.skip("request budgets on Redis (REDIS_URL unset)", () => {
    it("needs REDIS_URL", () => {})
  })
} else {
  describe("request budgets on Redis", () => {
    it.scoped("two processes share one budget", () =>
      Effect.gen(function*() {
        const [a, b] = [yield* processBudget(), yield* processBudget()]
        const target = { name: "test", subject: randomUUID(), budget: { limit: 3, windowSeconds: 60 }, cost: 1 }
        const results = [yield* a.charge(target), yield* b.charge(target), yield* a.charge(target), yield* b.charge(target)]
        expect(results.map((r) => Option.map(r, (c) => [c.remaining, c.retryAfterSeconds !== undefined]))).toEqual([
          Option.some([2, false]),
          Option.some([1, false]),
          Option.some([0, false]),
          Option.some([0, true])
        ])
      }), 20_000)

    it.scoped("an unreachable Redis fails open: no charge, no error", () =>
      Effect.gen(function*() {
        const context = yield* Layer.build(RateBudgetLive.pipe(
          Layer.provide(testConfigLayer({ redisUrl: Option.some(Redacted.make("redis://127.0.0.1:1")) }))
        ))
        const budget = Context.get(context, RateBudget)
        const result = yield* budget.charge({ name: "test", subject: "x", budget: { limit: 1, windowSeconds: 60 }, cost: 1 })
        expect(Option.isNone(result)).toBe(true)
      }), 20_000)
  })

  // a fresh account budget per run: clear this server's session keys left by an earlier run
  const clearBudgets = Effect.promise(async () => {
    const redis = new Redis(redisUrl)
    try {
      const keys = await redis.keys("agent-directory:budget:session:*")
      if (keys.length > 0) await redis.del(...keys)
    } finally {
      redis.disconnect()
    }
  })

  const server = makeTestServer({
    redisUrl: Option.some(Redacted.make(redisUrl)),
    budgets: { ...testConfig().budgets, session: { limit: 3, windowSeconds: 60 } }
  })

  layer(server.layer)("a server on Redis", (it) => {
    it.effect("reports the budget and refuses a spent one with 429 where listed", () =>
      Effect.gen(function*() {
        yield* clearBudgets
        const session = yield* signIn("owner")
        const other = yield* signIn("owner")
        const replies = [yield* call("GET", "/api/v1/me/sessions", { session }), yield* call("GET", "/api/v1/me/sessions", { session })]
        expect(replies.map((r) => r.headers["ratelimit"]?.replace(/;t=\d+$/, ""))).toEqual([`"session";r=2`, `"session";r=1`])
        yield* call("GET", "/api/v1/me/sessions", { session })
        const refused = yield* call("DELETE", `/api/v1/me/sessions/${other.sessionId}`, { session })
        expectProblem(refused, 429, "rate-limited")
        expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
      }), 30_000)
  })
}
