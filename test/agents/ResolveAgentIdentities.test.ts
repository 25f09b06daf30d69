/** POST /api/v1/resolve/agent-identities (Agents_ResolveAgentIdentities, spec §9). */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Data } from "../../schema/envelope.js"
import { ResolveAgentIdentitiesResult } from "../../schema/identity.js"
import { call, expectMeta, expectProblem } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgents, DemoIdentities, DemoResolveLocators } from "../../demo/agents/seed.js"

const path = "/api/v1/resolve/agent-identities"
const server = makeTestServer()
const decode = Schema.decodeUnknownSync(Data(ResolveAgentIdentitiesResult), { onExcessProperty: "error" })
const locators = DemoResolveLocators
const candidate = (agent: number, identity: number) => ({ entityId: DemoAgents[agent]!.id, publicId: DemoIdentities[identity - 1]!.id })

layer(server.layer)("Agents_ResolveAgentIdentities", (it) => {
  it.effect("anonymously resolves each locator in request order, never mapping a funded address", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", path, { body: { locators }, idempotencyKey: null })
      expect(reply.status, reply.text).toBe(200)
      expectMeta(reply)
      const { results } = decode(reply.body).data
      expect(results.map((r) => r.status)).toEqual(["UNIQUE", "NOT_FOUND", "AMBIGUOUS", "CONFLICTED", "INVALID"])
      expect(results[0]).toEqual({
        status: "UNIQUE",
        locator: "evm:base:0x8004a6090Cd10A7288092483047B097295Fb8847:1",
        candidates: [candidate(0, 1)],
        reasons: [{ code: "REGISTRY_BOUND", field: null }],
        canonicalUrl: `https://directory.test/api/v1/agents/${DemoAgents[0]!.id}`
      })
      expect(results[1]).toMatchObject({
        candidates: [],
        canonicalUrl: null,
        reasons: [{ code: "OBSERVED_ONLY_FUNDED", field: null }, { code: "OBSERVED_ONLY_TRANSFERRED", field: null }]
      })
      expect(results[2]!.candidates).toEqual([candidate(5, 7), candidate(6, 8)])
      expect(results[3]!.candidates).toEqual([candidate(6, 9), candidate(7, 10)])
      expect(results[4]).toEqual({
        status: "INVALID",
        locator: null,
        candidates: [],
        reasons: [{ code: "BASE58_MALFORMED", field: "nativeId" }],
        canonicalUrl: null
      })
    }))

  it.effect("answers a locator repeated in one batch, among others, as it answers it alone", () =>
    Effect.gen(function*() {
      // the lookup sends each distinct locator once and maps rows back by position
      const [unique, observed, , conflicted] = locators
      const mixed = [conflicted, unique, conflicted, observed, unique, unique]
      const reply = yield* call("POST", path, { body: { locators: mixed }, idempotencyKey: null })
      expect(reply.status, reply.text).toBe(200)
      const alone = yield* call("POST", path, { body: { locators }, idempotencyKey: null })
      const [u, o, , c] = decode(alone.body).data.results
      expect(decode(reply.body).data.results).toEqual([c, u, c, o, u, u])
    }))

  it.effect("accepts the public API key and answers the same; a bad key gets 401", () =>
    Effect.gen(function*() {
      const anonymous = yield* call("POST", path, { body: { locators } })
      const keyed = yield* call("POST", path, { body: { locators }, headers: { "x-api-key": DemoApiKeys.public.key } })
      expect(keyed.status, keyed.text).toBe(200)
      expect(keyed.body.data).toEqual(anonymous.body.data)
      const bad = yield* call("POST", path, { body: { locators }, headers: { "x-api-key": DemoApiKeys.revoked.key } })
      expectProblem(bad, 401)
    }))

  it.effect("rejects an empty batch, more than 100 locators and unknown keys with 400 naming the field", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("POST", path, { body: { locators: [] } }), 400)
      const many = Array.from({ length: 101 }, () => locators[0])
      expectProblem(yield* call("POST", path, { body: { locators: many } }), 400)
      const extra = yield* call("POST", path, { body: { locators: [{ ...locators[0], chainId: 8453 }] } })
      expectProblem(extra, 400)
      expect(JSON.stringify(extra.body.errors)).toContain("chainId")
    }))
})
