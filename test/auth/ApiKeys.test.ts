/**
 * Public API credentials (spec §5.3): transport (X-API-Key or Bearer), the one
 * identical 401 for every kind of bad key, scopes (403), and API keys on
 * session-only operations.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, expectProblem, type Reply, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { withoutRequestFields } from "./support.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"

const ProtocolsPath = "/api/v1/protocols"
const OrdersPath = "/api/v1/orders"

/** The seeded public key with its secret part replaced: the prefix exists, the key does not. */
const knownPrefixWrongSecret = DemoApiKeys.public.key.slice(0, "adk_0a1b2c3d4e5f_".length) + "W".repeat(43)

/** Every kind of bad credential, as request headers. */
const badCredentials: ReadonlyArray<readonly [string, Record<string, string>]> = [
  ["unknown (well-formed, not issued)", { "x-api-key": `adk_ffffffffffff_${"Z".repeat(43)}` }],
  ["known prefix, wrong secret", { "x-api-key": knownPrefixWrongSecret }],
  ["malformed", { "x-api-key": "nope" }],
  ["malformed as Bearer", { authorization: "Bearer nope" }],
  ["non-Bearer Authorization", { authorization: `Basic ${DemoApiKeys.public.key}` }],
  ["empty Bearer", { authorization: "Bearer " }],
  ["revoked", { "x-api-key": DemoApiKeys.revoked.key }],
  ["paused", { "x-api-key": DemoApiKeys.paused.key }],
  ["expired", { "x-api-key": DemoApiKeys.expired.key }],
  ["expired as Bearer", { authorization: `Bearer ${DemoApiKeys.expired.key}` }],
  ["other environment (production)", { "x-api-key": DemoApiKeys.production.key }],
  ["X-API-Key and a different Bearer", { "x-api-key": DemoApiKeys.public.key, authorization: `Bearer ${DemoApiKeys.agentsOnly.key}` }],
  ["X-API-Key and a different invalid Bearer", { "x-api-key": DemoApiKeys.public.key, authorization: "Bearer nope" }]
]

/** Asserts one identical 401 across `replies` (bodies compared without requestId/instance). */
const expectIdentical401 = (replies: ReadonlyArray<readonly [string, Reply]>) => {
  const [, first] = replies[0]!
  for (const [label, reply] of replies) {
    expect(reply.status, `${label}: ${reply.text}`).toBe(401)
    expectProblem(reply, 401, "unauthenticated")
    expect(reply.headers["cache-control"], label).toBe("no-store")
    expect(withoutRequestFields(reply.body), label).toEqual(withoutRequestFields(first.body))
  }
}

const server = makeTestServer()

layer(server.layer)("API keys", (it) => {
  it.effect("every bad key gets one identical 401 on a public operation", () =>
    Effect.gen(function*() {
      const replies: Array<readonly [string, Reply]> = []
      for (const [label, headers] of badCredentials) replies.push([label, yield* call("GET", ProtocolsPath, { headers })])
      expectIdentical401(replies)
      // the body names no key, prefix, state or environment
      for (const [label, reply] of replies) {
        expect(reply.text, label).not.toMatch(/adk_|revoked|paused|expired|production|prefix|scope/i)
      }
    }))

  it.effect("a key that lacks a required scope gets 403 insufficient-scope", () =>
    Effect.gen(function*() {
      const viaHeader = yield* call("GET", ProtocolsPath, { headers: { "x-api-key": DemoApiKeys.agentsOnly.key } })
      expectProblem(viaHeader, 403, "insufficient-scope")
      expect(viaHeader.body.detail).toContain("public:read")
      const viaBearer = yield* call("GET", ProtocolsPath, { headers: { authorization: `Bearer ${DemoApiKeys.agentsOnly.key}` } })
      expectProblem(viaBearer, 403, "insufficient-scope")
    }))

  it.effect("the public key works via X-API-Key, via Bearer (any case), and via both with the same value", () =>
    Effect.gen(function*() {
      const key = DemoApiKeys.public.key
      const anonymous = yield* call("GET", ProtocolsPath)
      expect(anonymous.status, anonymous.text).toBe(200)
      const variants: ReadonlyArray<Record<string, string>> = [
        { "x-api-key": key },
        { authorization: `Bearer ${key}` },
        { authorization: `bearer ${key}` },
        { "x-api-key": key, authorization: `Bearer ${key}` }
      ]
      for (const headers of variants) {
        const reply = yield* call("GET", ProtocolsPath, { headers })
        expect(reply.status, `${JSON.stringify(Object.keys(headers))}: ${reply.text}`).toBe(200)
        // a key raises the budget but does not change what public responses show
        expect(reply.body.data).toEqual(anonymous.body.data)
      }
    }))

  it.effect("a valid key on a session-only operation gets 403 session-required; a bad one the same 401", () =>
    Effect.gen(function*() {
      for (const headers of [{ "x-api-key": DemoApiKeys.public.key }, { authorization: `Bearer ${DemoApiKeys.public.key}` }]) {
        const reply = yield* call("GET", OrdersPath, { headers })
        expectProblem(reply, 403, "session-required")
      }

      const replies: Array<readonly [string, Reply]> = [["no credential", yield* call("GET", OrdersPath)]]
      for (const [label, headers] of badCredentials) replies.push([label, yield* call("GET", OrdersPath, { headers })])
      replies.push(["bad key on a public operation", yield* call("GET", ProtocolsPath, { headers: { "x-api-key": "nope" } })])
      expectIdentical401(replies)
    }))

  it.effect("a key does not stand in for the session, and does not spoil a valid session", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const withKey = yield* call("GET", OrdersPath, { session, headers: { "x-api-key": DemoApiKeys.public.key } })
      expect(withKey.status, withKey.text).toBe(200)
      const garbageCookie = yield* call("GET", OrdersPath, {
        headers: { cookie: "session=garbage", "x-api-key": DemoApiKeys.public.key }
      })
      expectProblem(garbageCookie, 403, "session-required")
    }))
})
