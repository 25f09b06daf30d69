/** GET /api/v1/agents/{entityPublicId} (Agents_GetAgent, spec §9): the canonical agent profile. */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { AgentProfile } from "../../schema/agents.js"
import { Data } from "../../schema/envelope.js"
import { call, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgents, DemoRegistries } from "../../demo/agents/seed.js"
import { DemoAssets, DemoNetworks } from "../../demo/common.js"
import { DemoOffers, DemoServices } from "../../demo/services/seed.js"

const server = makeTestServer()
const decode = Schema.decodeUnknownSync(Data(AgentProfile), { onExcessProperty: "error" })
const path = (id: string) => `/api/v1/agents/${id}`

layer(server.layer)("Agents_GetAgent", (it) => {
  it.effect("Atlas: identity, registry-bound locators only, trust from published feedback, published offers with price", () =>
    Effect.gen(function*() {
      const atlas = DemoAgents[0]
      const reply = yield* call("GET", path(atlas.id))
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(() => decode(reply.body)).not.toThrow()
      const p = reply.body.data
      expect(p.entityId).toBe(atlas.id)
      expect(p.publicId).toBe(atlas.id)
      expect(p.canonicalSlug).toBe("atlas-research")
      expect(p.canonicalUrl).toMatch(new RegExp(`^https?://[^/]+/api/v1/agents/${atlas.id}$`))
      expect(p.rank).toBe("1")
      expect(p.verificationState).toBe("VERIFIED")
      expect(p.networks).toEqual(["base"])
      expect(p.protocols).toEqual(["a2a", "erc-8004", "mcp", "x402"])
      expect(p.listedAt).toBe("2026-01-01T00:00:00.000Z")
      // sorted by canonical locator (byte order); the address Atlas was FUNDED from is not identity
      expect(p.locators).toEqual([
        {
          publicId: "0190000c-0000-7000-8000-000000000001",
          locator: `evm:base:${DemoRegistries.erc8004}:1`,
          networkFamily: "EVM",
          locatorKind: "REGISTRY_TOKEN",
          network: "base",
          caip2: "eip155:8453",
          registry: DemoRegistries.erc8004,
          nativeId: "1",
          // proven in the demo (so Atlas is VERIFIED by the verification rule)
          provenAt: "2026-01-07T00:00:00.000Z"
        },
        {
          publicId: "0190000c-0000-7000-8000-000000000003",
          locator: "evm:base:0xA11Ce0000000000000000000000000000000a7a5",
          networkFamily: "EVM",
          locatorKind: "ADDRESS",
          network: "base",
          caip2: "eip155:8453",
          registry: null,
          nativeId: "0xA11Ce0000000000000000000000000000000a7a5",
          provenAt: "2026-01-07T00:02:00.000Z"
        }
      ])
      expect(JSON.stringify(p)).not.toMatch(/F00D/i)
      // three PUBLISHED reviews (900k, 700k, 800k), two VERIFIED; the newest written on day 60 + 5 min
      expect(p.trust).toEqual({
        ratingPpm: 800000,
        feedbackCount: "3",
        verifiedFeedbackCount: "2",
        latestFeedbackAt: "2026-03-02T00:05:00.000Z"
      })
      // only the PUBLISHED offer of Atlas's service, with its price in effect
      expect(p.offers).toEqual([{
        id: DemoOffers.published.id,
        serviceId: DemoServices.research.id,
        title: "Pro research plan",
        slug: "pro",
        description: "Pro research plan of Atlas Research API.",
        pricingModel: "FIXED",
        publishedAt: "2026-01-06T00:00:00.000Z",
        currentPrice: {
          id: "0190000d-0000-7000-8000-000000000002",
          version: 1,
          networkPublicId: DemoNetworks.base.id,
          assetPublicId: DemoAssets.usdc.id,
          units: "10000000",
          effectiveFrom: "2026-01-04T00:00:00.000Z",
          effectiveUntil: null,
          x402ResourceTemplate: null
        }
      }])
    }))

  it.effect("an offer appears once published; withdrawn, hidden and pending feedback never count", () =>
    Effect.gen(function*() {
      // Beacon: one PENDING_MODERATION and one HIDDEN review; Cobalt: one WITHDRAWN
      for (const agent of [DemoAgents[1], DemoAgents[2]]) {
        const reply = yield* call("GET", path(agent.id), { headers: { "x-api-key": DemoApiKeys.public.key } })
        expect(reply.status, reply.text).toBe(200)
        expect(reply.body.data.trust).toEqual({ ratingPpm: null, feedbackCount: "0", verifiedFeedbackCount: "0", latestFeedbackAt: null })
        expect(reply.body.data.offers).toEqual([])
      }
      const owner = yield* signIn("owner")
      const published = yield* call("POST", `/api/v1/offers/${DemoOffers.starter.id}/publish`, {
        session: owner,
        body: { version: DemoOffers.starter.version }
      })
      expect(published.status, published.text).toBe(200)
      const after = yield* call("GET", path(DemoAgents[0].id))
      expect(after.body.data.offers.map((o: any) => o.id).sort()).toEqual([DemoOffers.published.id, DemoOffers.starter.id].sort())
      const starter = after.body.data.offers.find((o: any) => o.id === DemoOffers.starter.id)
      expect(starter.currentPrice.units).toBe("5000000")
    }))

  it.effect("an agent without protocols or tagline still has its profile; its rank is the projection's", () =>
    Effect.gen(function*() {
      const harbor = yield* call("GET", path(DemoAgents[7].id))
      expect(harbor.status).toBe(200)
      // listed, so ranked by the projection: last but one of the demo agents
      expect(harbor.body.data.rank).toBe("7")
      expect(harbor.body.data.tagline).toBeNull()
      expect(harbor.body.data.protocols).toEqual([])
      expect(harbor.body.data.verificationState).toBe("CONFLICTED")
      expect(harbor.body.data.locators.map((l: any) => l.nativeId)).toEqual(["9"])
    }))

  it.effect("404 agent-not-found for an unknown UUID; 400 for a malformed one; 401/403 for bad keys", () =>
    Effect.gen(function*() {
      const missing = yield* call("GET", path("01900006-0000-7000-8000-0000000000ff"))
      expectProblem(missing, 404, "agent-not-found")
      const bad = yield* call("GET", path("not-a-uuid"))
      expectProblem(bad, 400, "invalid-request")
      expect(bad.body.errors[0].in).toBe("path")
      expect(bad.body.detail).not.toContain("not-a-uuid")
      expectProblem(yield* call("GET", path(DemoAgents[0].id), { headers: { "x-api-key": DemoApiKeys.paused.key } }), 401, "unauthenticated")
      expectProblem(yield* call("GET", path(DemoAgents[0].id), { headers: { "x-api-key": DemoApiKeys.browser.key } }), 403, "insufficient-scope")
    }))
})
