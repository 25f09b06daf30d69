/**
 * Request budgets (spec §8 x-rate-cost): each credential kind's budget, the IETF
 * `RateLimit-Policy`/`RateLimit` headers, 429 with `Retry-After` only on operations
 * that list 429, and sign-in throttling that does not reveal whether an account exists.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, expectProblem, signIn } from "../support/http.js"
import type { AppConfigShape } from "../../layers/AppConfig.js"
import { testConfig } from "../support/config.js"
import { makeTestServer } from "../support/TestServer.js"
import { withoutRequestFields } from "../auth/support.js"
import { DemoAccounts, DemoApiKeys } from "../../demo/accounts/seed.js"

const ProtocolsPath = "/api/v1/protocols"
const SignInPath = "/api/v1/auth/sign-in"

/** The test budgets with some replaced. */
const budgets = (small: Partial<AppConfigShape["budgets"]>): AppConfigShape["budgets"] => ({ ...testConfig().budgets, ...small })

const server = makeTestServer({
  budgets: budgets({
    anonymous: { limit: 3, windowSeconds: 60 },
    apiKey: { limit: 6, windowSeconds: 60 },
    session: { limit: 20, windowSeconds: 60 }
  })
})

layer(server.layer)("request budgets", (it) => {
  it.effect("anonymous callers: charged per address, headers on every response, never refused where 429 is not listed", () =>
    Effect.gen(function*() {
      const replies = []
      for (let i = 0; i < 5; i++) replies.push(yield* call("GET", ProtocolsPath))
      for (const r of replies) {
        expect(r.status).toBe(200) // Protocols_GetProtocolCatalog does not list 429
        expect(r.headers["ratelimit-policy"]).toBe(`"anonymous";q=3;w=60`)
      }
      expect(replies.map((r) => r.headers["ratelimit"]!.replace(/;t=\d+$/, ""))).toEqual([
        `"anonymous";r=2`, `"anonymous";r=1`, `"anonymous";r=0`, `"anonymous";r=0`, `"anonymous";r=0`
      ])
      expect(replies[0]!.headers["ratelimit"]).toMatch(/;t=(?:[1-9]|1\d|20)$/)

      // an API key has its own, larger budget
      const keyed = yield* call("GET", ProtocolsPath, { headers: { "x-api-key": DemoApiKeys.public.key } })
      expect(keyed.headers["ratelimit-policy"]).toBe(`"api-key";q=6;w=60`)
      expect(keyed.headers["ratelimit"]).toMatch(/^"api-key";r=5;t=\d+$/)

      // the window passes: the budget is back
      server.clock.advance(61_000)
      const later = yield* call("GET", ProtocolsPath)
      expect(later.headers["ratelimit"]).toMatch(/^"anonymous";r=2;t=\d+$/)
    }))

  it.effect("a session is charged per account; an operation that lists 429 refuses a spent budget with Retry-After", () =>
    Effect.gen(function*() {
      server.clock.advance(120_000)
      const session = yield* signIn("owner")
      const first = yield* call("GET", "/api/v1/me/sessions", { session })
      expect(first.headers["ratelimit-policy"]).toBe(`"session";q=20;w=60`)
      expect(first.headers["ratelimit"]).toMatch(/^"session";r=19;t=\d+$/)
      // another session of the same account shares the budget
      const second = yield* signIn("owner")
      const shared = yield* call("GET", "/api/v1/me/sessions", { session: second })
      expect(shared.headers["ratelimit"]).toMatch(/^"session";r=18;t=\d+$/)
      for (let i = 0; i < 18; i++) yield* call("GET", "/api/v1/me/sessions", { session })
      // Accounts_ListSessions does not list 429: still served
      const listed = yield* call("GET", "/api/v1/me/sessions", { session })
      expect(listed.status).toBe(200)
      expect(listed.headers["ratelimit"]).toMatch(/^"session";r=0;t=\d+$/)
      // Accounts_RevokeSession lists 429: refused
      const refused = yield* call("DELETE", `/api/v1/me/sessions/${second.sessionId}`, { session })
      expectProblem(refused, 429, "rate-limited")
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
      expect(refused.headers["ratelimit"]).toMatch(/^"session";r=0;t=\d+$/)
      server.clock.advance(61_000)
      const allowed = yield* call("DELETE", `/api/v1/me/sessions/${second.sessionId}`, { session })
      expect(allowed.status, allowed.text).toBe(200)
    }))
})

const addressServer = makeTestServer({
  trustedProxyHops: 1,
  budgets: budgets({ signInAccount: { limit: 2, windowSeconds: 900 }, signInAddress: { limit: 2, windowSeconds: 900 } })
})

layer(addressServer.layer)("sign-in throttling (behind one trusted proxy)", (it) => {
  it.effect("sign-in is throttled per account, identically for existing and unknown accounts", () =>
    Effect.gen(function*() {
            let n = 0 // each attempt from a new address: only the per-account budget applies
      const attempt = (email: string, password: string) =>
        call("POST", SignInPath, { body: { email, password }, headers: { "x-forwarded-for": `192.0.2.${++n}` } })
      const known = DemoAccounts.member.email
      const unknown = "nobody-here@example.com"
      for (const email of [known, unknown]) {
        expectProblem(yield* attempt(email, "wrong-password"), 401, "unauthenticated")
        expectProblem(yield* attempt(email, "wrong-password"), 401, "unauthenticated")
      }
      const throttledKnown = yield* attempt(known, DemoAccounts.member.password) // even the right password
      const throttledUnknown = yield* attempt(unknown, "wrong-password")
      for (const reply of [throttledKnown, throttledUnknown]) {
        expectProblem(reply, 429, "sign-in-throttled")
        expect(Number(reply.headers["retry-after"])).toBeGreaterThan(0)
      }
      expect(withoutRequestFields(throttledKnown.body)).toEqual(withoutRequestFields(throttledUnknown.body))
      expect(throttledKnown.headers["retry-after"]).toBe(throttledUnknown.headers["retry-after"])
      // other accounts are not affected
      expect((yield* attempt(DemoAccounts.outsider.email, DemoAccounts.outsider.password)).status).toBe(200)
      addressServer.clock.advance(901_000)
      expect((yield* attempt(known, DemoAccounts.member.password)).status).toBe(200)
    }))


  it.effect("a client address is throttled across accounts; another address is not", () =>
    Effect.gen(function*() {
      const from = (address: string, email: string) =>
        call("POST", SignInPath, { body: { email, password: "wrong-password" }, headers: { "x-forwarded-for": `spoofed, ${address}` } })
      addressServer.clock.advance(1_000_000)
      expectProblem(yield* from("203.0.113.7", "a@example.com"), 401)
      expectProblem(yield* from("203.0.113.7", "b@example.com"), 401)
      expectProblem(yield* from("203.0.113.7", "c@example.com"), 429, "sign-in-throttled")
      expectProblem(yield* from("198.51.100.9", "c@example.com"), 401)
    }))
})
