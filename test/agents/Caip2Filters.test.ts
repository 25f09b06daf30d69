/**
 * CAIP-2 where the directory's reads name a network: Agents_ListAgents'
 * `networks` filter and Agents_GetPublicAgentActivity's accept a CAIP-2 chain id as they
 * accept the network key; Agents_ResolveAgentIdentities resolves a CAIP-2-named locator as
 * the key-named one (malformed → NETWORK_MALFORMED, unknown → NETWORK_UNKNOWN).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAgents, DemoResolveLocators } from "../../demo/agents/seed.js"
import { call, expectProblem } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const server = makeTestServer()
const ids = (reply: { body: any }) => reply.body.data.map((a: any) => a.publicId)

layer(server.layer)("CAIP-2 in directory reads", (it) => {
  it.effect("Agents_ListAgents: networks=eip155:8453 lists what networks=base lists; Solana by CAIP-2 too", () =>
    Effect.gen(function*() {
      const byKey = yield* call("GET", "/api/v1/agents?networks=base&limit=100")
      const byCaip2 = yield* call("GET", "/api/v1/agents?networks=eip155:8453&limit=100")
      expect(byCaip2.status, byCaip2.text).toBe(200)
      expect(ids(byCaip2)).toEqual(ids(byKey))
      expect(ids(byKey).length).toBeGreaterThan(0)
      const solana = yield* call("GET", "/api/v1/agents?networks=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")
      expect(ids(solana)).toEqual([DemoAgents[2].id])
      expect(ids(yield* call("GET", "/api/v1/agents?networks=eip155:999999"))).toEqual([])
      expectProblem(yield* call("GET", "/api/v1/agents?networks=EIP155:8453"), 400, "invalid-request")
    }))

  it.effect("Agents_GetPublicAgentActivity: networks by CAIP-2 as by key", () =>
    Effect.gen(function*() {
      const path = `/api/v1/agents/${DemoAgents[0].id}/activity?limit=100`
      const byKey = yield* call("GET", `${path}&networks=solana`)
      const byCaip2 = yield* call("GET", `${path}&networks=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`)
      expect(byCaip2.status, byCaip2.text).toBe(200)
      expect(ids(byKey).length).toBeGreaterThan(0)
      expect(ids(byCaip2)).toEqual(ids(byKey))
    }))

  it.effect("Agents_ResolveAgentIdentities: CAIP-2 networks resolve as keys do", () =>
    Effect.gen(function*() {
      const byKey = yield* call("POST", "/api/v1/resolve/agent-identities", { body: { locators: DemoResolveLocators } })
      const caip2 = { base: "eip155:8453", solana: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" } as const
      const byCaip2 = yield* call("POST", "/api/v1/resolve/agent-identities", {
        body: { locators: DemoResolveLocators.map((l) => ({ ...l, network: caip2[l.network] })) }
      })
      expect(byCaip2.status, byCaip2.text).toBe(200)
      expect(byCaip2.body.data).toEqual(byKey.body.data)
      const bad = yield* call("POST", "/api/v1/resolve/agent-identities", {
        body: { locators: [{ ...DemoResolveLocators[1], network: "eip155:12345" }, { ...DemoResolveLocators[1], network: "eip155:" }] }
      })
      expect(bad.body.data.results.map((r: any) => r.reasons)).toEqual([
        [{ code: "NETWORK_UNKNOWN", field: "network" }],
        [{ code: "NETWORK_MALFORMED", field: "network" }]
      ])
    }))
})
