/**
 * Agents_GetPublicAgentActivity (spec §2.21, §4.3): GET /api/v1/agents/{entityPublicId}/activity —
 * newest first, the items' exact shape, repeated filters, signed cursors bound to the filters, 400 and 404.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoActivity } from "../../demo/social/analytics/data.js"
import { call, expectMeta, expectProblem } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"

const atlas = DemoAgents[0].id
const feed = (query: string, agent: string = atlas, headers: Record<string, string> = {}) =>
  call("GET", `/api/v1/agents/${agent}/activity${query === "" ? "" : `?${query}`}`, { headers })
const atlasItems = DemoActivity.filter((a) => a.agent === atlas).sort((a, b) => b.at.getTime() - a.at.getTime())

const server = makeTestServer()

layer(server.layer)("Agents_GetPublicAgentActivity", (it) => {
  it.effect("lists the agent's activity newest first, each item exactly as spec §2.21", () =>
    Effect.gen(function*() {
      const reply = yield* feed("")
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(Object.keys(reply.body).sort()).toEqual(["data", "meta", "nextCursor"])
      expect(reply.body.nextCursor).toBeNull()
      expect(reply.body.data.map((i: any) => i.publicId)).toEqual(atlasItems.map((a) => a.id))
      const payment = reply.body.data.find((i: any) => i.publicId === DemoActivity[4].id)
      expect(payment).toEqual({
        publicId: DemoActivity[4].id,
        activityKey: "payment.received",
        eventVersion: 2,
        summary: "Received a SOL payment",
        sourceKind: "CHAIN_OBSERVATION",
        network: { key: "solana", displayName: "Solana" },
        transactionReference: DemoActivity[4].tx,
        explorerUrl: DemoActivity[4].explorer,
        evidencePublicId: null,
        occurredAt: DemoActivity[4].at.toISOString()
      })
      const evidence = reply.body.data.find((i: any) => i.publicId === DemoActivity[5].id)
      expect(evidence).toMatchObject({ summary: null, network: null, transactionReference: null, explorerUrl: null, evidencePublicId: DemoActivity[5].evidence })
      // an API key with agents:read works too
      const keyed = yield* feed("", atlas, { "x-api-key": DemoApiKeys.agentsOnly.key })
      expect(keyed.status).toBe(200)
    }))

  it.effect("filters by repeated sourceKinds, networks and activityKeys (AND across, OR within)", () =>
    Effect.gen(function*() {
      const ids = (r: any) => r.body.data.map((i: any) => i.publicId)
      expect(ids(yield* feed("sourceKinds=CHAIN_OBSERVATION"))).toEqual(
        atlasItems.filter((a) => a.kind === "CHAIN_OBSERVATION").map((a) => a.id)
      )
      expect(ids(yield* feed("sourceKinds=DOMAIN_EVENT&sourceKinds=PRODUCT_EVIDENCE"))).toEqual(
        atlasItems.filter((a) => a.kind === "DOMAIN_EVENT" || a.kind === "PRODUCT_EVIDENCE").map((a) => a.id)
      )
      expect(ids(yield* feed("networks=solana"))).toEqual([DemoActivity[4].id])
      expect(ids(yield* feed("networks=base&activityKeys=payment.received"))).toEqual([DemoActivity[2].id])
      expect(ids(yield* feed("activityKeys=nothing.here"))).toEqual([])
    }))

  it.effect("pages with a signed cursor bound to the filters", () =>
    Effect.gen(function*() {
      const first = yield* feed("limit=3")
      expect(first.body.data).toHaveLength(3)
      expect(typeof first.body.nextCursor).toBe("string")
      const seen = [...first.body.data]
      let cursor: string | null = first.body.nextCursor
      while (cursor !== null) {
        const next = yield* feed(`limit=3&cursor=${encodeURIComponent(cursor)}`)
        expect(next.status, next.text).toBe(200)
        seen.push(...next.body.data)
        cursor = next.body.nextCursor
      }
      expect(seen.map((i) => i.publicId)).toEqual(atlasItems.map((a) => a.id))
      const other = yield* feed(`limit=3&sourceKinds=DOMAIN_EVENT&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      expectProblem(other, 400, "invalid-cursor")
      expectProblem(yield* feed(`cursor=${encodeURIComponent(first.body.nextCursor)}`, DemoAgents[1].id), 400, "invalid-cursor")
    }))

  it.effect("400 for bad query values, 404 for an unknown agent", () =>
    Effect.gen(function*() {
      expectProblem(yield* feed("limit=0"), 400, "invalid-request")
      expectProblem(yield* feed("limit=101"), 400, "invalid-request")
      expectProblem(yield* feed("sourceKinds=SOMETHING"), 400, "invalid-request")
      const kinds = ["DOMAIN_EVENT", "CHAIN_OBSERVATION", "PROVIDER_OBSERVATION", "PRODUCT_EVIDENCE", "DOMAIN_EVENT"]
      expectProblem(yield* feed(kinds.map((k) => `sourceKinds=${k}`).join("&")), 400, "invalid-request")
      expectProblem(yield* feed(Array.from({ length: 21 }, (_, i) => `networks=n${i}`).join("&")), 400, "invalid-request")
      expectProblem(yield* feed(`activityKeys=${"k".repeat(151)}`), 400, "invalid-request")
      expectProblem(yield* feed(`cursor=${"c".repeat(4097)}`), 400, "invalid-request")
      expectProblem(yield* feed("", "not-a-uuid"), 400, "invalid-request")
      expectProblem(yield* feed("", randomUUID()), 404, "agent-not-found")
    }))
})
