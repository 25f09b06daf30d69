/**
 * A2A Agent Cards read by `@a2a-js/sdk`'s card resolver and client factory from the real
 * listening test server, each validated against A2A 1.0 (test/support/a2a.ts: the
 * specification's JSON Schema and the SDK's codec): the directory's own card
 * (`/.well-known/agent-card.json`, its A2A interface reached by the SDK's client) and
 * Agents_GetAgentCard for both kinds of agent card, one built from the profile (only for an
 * agent with an A2A interface, else 404 `agent-card-not-available`) and one the agent
 * published (imported from a local card host, served byte for byte, its JWS signature still
 * verifying with the agent's key); strong ETags and 304; the 404s (unknown, unlisted, retired,
 * no A2A interface) and the 400 of a malformed id.
 */
import { AgentCard, verifyAgentCardSignature, generateAgentCardSignature } from "@a2a-js/sdk"
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver } from "@a2a-js/sdk/client"
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Cause, Effect, Schema } from "effect"
import { createHash, generateKeyPairSync } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgentCard } from "../../demo/agents/imports/seed.js"
import { A2aAgentCardDocument } from "../../src/agents/imports/A2aAgentCard.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { ServiceOffersExtensionUri } from "../../schema/a2aOffersExtension.js"
import { NonA2aInterfacesExtensionUri } from "../../schema/a2aInterfacesExtension.js"
import { testConfig } from "../support/config.js"
import { call, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { clientFactory, expectA2aCard, fetchTo } from "../support/a2a.js"
import { until, waitFor } from "../support/waitFor.js"

const atlas = DemoAgents[0].id
const beacon = DemoAgents[1].id
const cardPath = (agent: string) => `/api/v1/agents/${agent}/agent-card`
const PublicBaseUrl = testConfig().publicBaseUrl

/** The agent's signing key (ES256, P-256) and the card it publishes, signed, in A2A 1.0 shape. */
const keys = generateKeyPairSync("ec", { namedCurve: "P-256" })
const unsignedCard = {
  name: "Beacon Monitor",
  description: "Uptime checks and chain watching, over A2A.",
  version: "3.1.0",
  supportedInterfaces: [{ url: "https://beacon.example/a2a/v1", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
  provider: { organization: "Beacon Labs", url: "https://beacon.example" },
  capabilities: { streaming: true, extensions: [] },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain", "application/json"],
  skills: [
    { id: "uptime", name: "Uptime checks", description: "Checks endpoints every minute.", tags: ["monitoring"], examples: ["Watch https://x.example"] }
  ]
}
/** The published text: the signed card with its own formatting, key order and a member no schema has. */
const publishedText = Effect.promise(async () => {
  const sign = generateAgentCardSignature(keys.privateKey, { alg: "ES256", kid: "beacon-key-1", typ: "JOSE" })
  const signed = await sign(unsignedCard as unknown as AgentCard)
  return JSON.stringify({ "x-vendor": { tier: "gold" }, ...signed }, null, 3) + "\n"
})

/** The stub host of Beacon's card on 127.0.0.1. */
const CardHost = (text: string) =>
  Effect.acquireRelease(
    Effect.async<Server>((resume) => {
      const server = createServer((req, res) => {
        if (req.url === "/.well-known/agent-card.json") return res.writeHead(200, { "content-type": "application/json" }).end(text)
        res.writeHead(404).end()
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
  ).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`))

const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } })

/** The test server's own URL (a real listening socket), for the SDK's fetch. */
const baseUrl = Effect.map(HttpServer.HttpServer, (s) => {
  const address = s.address as HttpServer.TcpAddress
  return `http://127.0.0.1:${address.port}`
})

const resolver = new DefaultAgentCardResolver({ fetchImpl: (input, init) => fetch(input, init) })
/** The SDK's card resolution: the card at `path` of the server. */
const resolve = (path?: string) => Effect.flatMap(baseUrl, (base) => Effect.promise(() => resolver.resolve(base, path)))

/** The SDK reads the card through its own codec (proto JSON) without losing what the card says. */
const expectSdkAccepts = (card: unknown) => {
  const decoded = AgentCard.fromJSON(card as never)
  const json = AgentCard.toJSON(decoded) as Record<string, unknown>
  const c = card as Record<string, any>
  expect(json["name"]).toBe(c["name"])
  expect(json["version"]).toBe(c["version"])
  expect((json["skills"] as Array<{ id: string }> | undefined ?? []).map((s) => s.id)).toEqual(c["skills"].map((s: any) => s.id))
  // and it is a card by our own Schema of the served shape
  expect(Schema.decodeUnknownEither(A2aAgentCardDocument)(card)._tag).toBe("Right")
}

const profileOf = (agent: string) => Effect.map(call("GET", `/api/v1/agents/${agent}`), (r) => r.body.data)

/** Imports Beacon's card from `url` as the owner and waits (at most 20 s) for it to succeed. */
const importCard = (owner: Session, url: string) =>
  Effect.gen(function*() {
    const started = yield* call("POST", `/api/v1/agents/${beacon}/imports`, { session: owner, body: { kind: "A2A_AGENT_CARD", url } })
    expect(started.status, started.text).toBe(202)
    const reply = yield* waitFor(
      "the import to end",
      until(
        call("GET", `/api/v1/agents/${beacon}/imports/${started.body.data.id}`, { session: owner }),
        (reply) => reply.body.data.state === "SUCCEEDED" || reply.body.data.state === "FAILED",
        (reply) => reply.text
      ),
      20_000,
      50
    )
    expect(reply.body.data.state, reply.text).not.toBe("FAILED")
  })

layer(server.layer, { excludeTestServices: true })("A2A Agent Cards", (it) => {
  it.effect("the directory's card: resolved by the SDK, skills search and resolve, its A2A interface, MCP and REST in the extension", () =>
    Effect.gen(function*() {
      const card = yield* resolve()
      expect(card.name).toBe("Agent Directory")
      // as served (the SDK's resolver answers its own form of the card, e.g. of securitySchemes)
      const raw = (yield* call("GET", "/.well-known/agent-card.json")).body as Record<string, any>
      expectSdkAccepts(raw)
      expect(raw["name"]).toBe("Agent Directory")
      expect(raw["version"]).toBe("1.0.0")
      expect(raw["provider"]).toEqual({ organization: "Agent Directory API", url: "https://agent-directory.dev" })
      expect(raw["documentationUrl"]).toBe(`${PublicBaseUrl}/docs`)
      expect(raw["skills"].map((s: any) => s.id)).toEqual(["search", "resolve"])
      for (const skill of raw["skills"]) {
        expect(skill.examples.length).toBeGreaterThan(0)
        expect(skill.tags.length).toBeGreaterThan(0)
      }
      expectA2aCard(raw)
      // its A2A interface (src/a2aServer/), then MCP and REST in the non-A2A-interfaces extension
      expect(raw["supportedInterfaces"]).toEqual([
        { url: `${PublicBaseUrl}/a2a/jsonrpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url: `${PublicBaseUrl}/a2a/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" }
      ])
      expect(raw["capabilities"]["extensions"]).toEqual([{
        uri: NonA2aInterfacesExtensionUri,
        description: expect.any(String),
        required: false,
        params: {
          interfaces: [
            { protocol: "MCP", url: `${PublicBaseUrl}/mcp`, protocolVersion: "2025-11-25", transport: "streamable-http" },
            { protocol: "REST", url: `${PublicBaseUrl}/api/v1`, openApiUrl: `${PublicBaseUrl}/openapi.json` }
          ]
        }
      }])
      // the SDK's client factory picks the JSON-RPC interface (requests for PUBLIC_BASE_URL go to the test server)
      const base = yield* baseUrl
      const client = yield* Effect.promise(() => clientFactory(fetchTo(base)).createFromUrl(base))
      const fetched = yield* Effect.promise(() => client.getAgentCard())
      expect(fetched.name).toBe("Agent Directory")

      // strong ETag of the exact body; 304 on If-None-Match; public cache; readable cross-origin
      const reply = yield* call("GET", "/.well-known/agent-card.json", { headers: { origin: "https://elsewhere.example" } })
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^application\/json/)
      expect(reply.headers["etag"]).toBe(`"${createHash("sha256").update(reply.text).digest("base64url")}"`)
      expect(reply.headers["cache-control"]).toBe("public, max-age=300, stale-while-revalidate=60")
      expect(reply.headers["access-control-allow-origin"]).toBe("*")
      const again = yield* call("GET", "/.well-known/agent-card.json", { headers: { "if-none-match": reply.headers["etag"]! } })
      expect(again.status).toBe(304)
      expect(again.text).toBe("")
      expect(again.headers["etag"]).toBe(reply.headers["etag"])
    }))

  it.effect("an agent with no published card and no A2A interface: 404 agent-card-not-available linking its profile", () =>
    Effect.gen(function*() {
      const id = beacon
      const profile = yield* profileOf(id)
      expect(profile.interfaces).toEqual([]) // Beacon's only card import FAILED
      const reply = yield* call("GET", cardPath(id))
      expectProblem(reply, 404, "agent-card-not-available")
      expect(reply.body.detail).toContain(`${PublicBaseUrl}/api/v1/agents/${id}`)
      expect(reply.body.detail).toContain(profile.canonicalUrl)
      expect(reply.headers["etag"]).toBeUndefined()
      // for API keys with agents:read alike
      const withKey = yield* call("GET", cardPath(id), { headers: { authorization: `Bearer ${DemoApiKeys.public.key}` } })
      expectProblem(withKey, 404, "agent-card-not-available")
      // the SDK's resolver does not get a card
      const sdk = yield* Effect.flip(resolve(cardPath(id)).pipe(Effect.sandbox))
      expect(Cause.pretty(sdk)).toMatch(/Failed to fetch Agent Card .*: 404/)
    }))

  it.effect("every listed agent's card is a valid A2A 1.0 card (or its own published 0.3 card), else 404 agent-card-not-available", () =>
    Effect.gen(function*() {
      const listed = (yield* call("GET", "/api/v1/agents?limit=100")).body.data as Array<{ publicId: string }>
      expect(listed.length).toBeGreaterThan(1)
      let served = 0
      for (const { publicId } of listed) {
        const reply = yield* call("GET", cardPath(publicId))
        if (reply.status === 404) {
          expectProblem(reply, 404, "agent-card-not-available")
          expect((yield* profileOf(publicId)).interfaces).toEqual([])
          continue
        }
        expect(reply.status, reply.text).toBe(200)
        served++
        // Atlas's demo card is the A2A 0.3 card it published, served as published
        if (publicId === atlas) expect(reply.text).toBe(JSON.stringify(DemoAgentCard, null, 2))
        else expectA2aCard(reply.body)
      }
      expect(served).toBeGreaterThan(0)
    }))

  it.scoped("a published card: served byte for byte, its signature verifies with the agent's key; the demo card too", () =>
    Effect.gen(function*() {
      const text = yield* publishedText
      const host = yield* CardHost(text)
      const owner = yield* signIn("owner")
      // Beacon published no card yet and has no A2A interface
      expectProblem(yield* call("GET", cardPath(beacon)), 404, "agent-card-not-available")

      yield* importCard(owner, `${host}/.well-known/agent-card.json`)
      const reply = yield* call("GET", cardPath(beacon))
      expect(reply.status).toBe(200)
      expect(reply.text).toBe(text)
      expect(reply.headers["etag"]).toBe(`"${createHash("sha256").update(text).digest("base64url")}"`)
      expectA2aCard(JSON.parse(reply.text))
      expect((yield* call("GET", cardPath(beacon), { headers: { "if-none-match": reply.headers["etag"]! } })).status).toBe(304)

      // the SDK resolves it, verifies the agent's signature, and its client factory picks the card's JSON-RPC interface
      const card = yield* resolve(cardPath(beacon))
      expect(card.signatures).toHaveLength(1)
      yield* Effect.promise(() => verifyAgentCardSignature(async (kid) => {
        expect(kid).toBe("beacon-key-1")
        return keys.publicKey
      })(card))
      const tampered = { ...card, description: "Something else." }
      const forged = yield* Effect.flip(Effect.tryPromise(() => verifyAgentCardSignature(async () => keys.publicKey)(tampered)))
      expect(forged).toBeDefined()
      const base = yield* baseUrl
      const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { cardResolver: resolver }))
      const client = yield* Effect.promise(() => factory.createFromUrl(base, cardPath(beacon)))
      expect(client).toBeDefined()

      // Atlas's demo card (A2A 0.3 shape, seeded as published): exactly the seeded text
      const atlasReply = yield* call("GET", cardPath(atlas))
      expect(atlasReply.text).toBe(JSON.stringify(DemoAgentCard, null, 2))
      const atlasCard = yield* resolve(cardPath(atlas))
      expect((atlasCard as unknown as Record<string, unknown>)["url"]).toBe(DemoAgentCard.url)
    }))

  it.effect("404 agent-not-found for an unknown, an unlisted and a retired agent; 400 for a malformed id", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("GET", cardPath("00000000-0000-7000-8000-000000000000")), 404, "agent-not-found")
      expectProblem(yield* call("GET", cardPath("not-a-uuid")), 400)

      // unlisted: taken off the list (listed_at cleared) but still ACTIVE
      const sql = yield* SqlClient.SqlClient
      const unlisted = DemoAgents[7].id
      // listed, without an A2A interface: no card; unlisted: not an agent of the directory
      expectProblem(yield* call("GET", cardPath(unlisted)), 404, "agent-card-not-available")
      yield* sql`UPDATE agents SET listed_at = NULL WHERE id = ${unlisted}`
      expectProblem(yield* call("GET", cardPath(unlisted)), 404, "agent-not-found")

      // retired through the API: the profile stays readable, the card is gone
      const owner = yield* signIn("owner")
      const retiring = beacon
      const profile = yield* profileOf(retiring)
      const retired = yield* call("POST", `/api/v1/agents/${retiring}/retire`, { session: owner, body: { expectedVersion: profile.version } })
      expect(retired.status, retired.text).toBe(200)
      expect((yield* call("GET", `/api/v1/agents/${retiring}`)).status).toBe(200)
      const gone = yield* call("GET", cardPath(retiring))
      expectProblem(gone, 404, "agent-not-found")
      expect(gone.headers["etag"]).toBeUndefined()
      const sdk = yield* Effect.flip(resolve(cardPath(retiring)).pipe(Effect.sandbox))
      expect(Cause.pretty(sdk)).toMatch(/Failed to fetch Agent Card .*: 404/)
    }))

  it.effect("a built card carries the imported skills and A2A interfaces, then one skill per published offer, and the declared endpoints", () =>
    Effect.gen(function*() {
      // Atlas without its published card (as if the card row were gone): the card is built from what imports recorded
      const sql = yield* SqlClient.SqlClient
      yield* sql`DELETE FROM agent_a2a_cards WHERE agent_id = ${atlas}`
      const profile = yield* profileOf(atlas)
      expect(profile.offers.length).toBeGreaterThan(0)
      const card = yield* resolve(cardPath(atlas))
      expectSdkAccepts(card)
      expectA2aCard(card)
      const raw = card as unknown as Record<string, any>
      expect(raw["provider"]).toBeUndefined() // the provider was part of the card's row
      // the modes the imported skills declare
      expect(raw["defaultInputModes"]).toEqual([...new Set(profile.skills.flatMap((s: any) => s.inputModes))])
      expect(raw["defaultInputModes"].length).toBeGreaterThan(0)
      expect(raw["defaultOutputModes"].length).toBeGreaterThan(0)
      // the SDK's client factory picks the preferred (first) interface
      const client = yield* Effect.promise(() => new ClientFactory().createFromAgentCard(card))
      expect(client).toBeDefined()
      expect(raw["supportedInterfaces"]).toEqual([
        { url: "https://atlas-research.example/a2a/v1", protocolBinding: "JSONRPC", protocolVersion: "0.3.0" },
        { url: "https://atlas-research.example/a2a/rest", protocolBinding: "HTTP+JSON", protocolVersion: "0.3.0" }
      ])
      expect(raw["skills"]).toEqual([
        ...profile.skills,
        ...profile.offers.map((o: any) => ({
          id: `offer:${o.slug}`,
          name: o.title,
          description: o.description.trim() !== "" ? o.description : o.title,
          tags: ["service-offer", o.pricingModel],
          examples: []
        }))
      ])
      expect(raw["skills"].slice(0, 2).map((s: any) => s.id)).toEqual(["literature-review", "market-scan"])
      // the ERC-8004 file's URL endpoints (not its CAIP-10 wallet) in the non-A2A-interfaces extension
      expect(raw["capabilities"]["extensions"]).toEqual([{
        uri: NonA2aInterfacesExtensionUri,
        description: expect.any(String),
        required: false,
        params: { interfaces: [{ protocol: "A2A", url: "https://atlas-research.example/.well-known/agent-card.json", protocolVersion: "0.3.0" }] }
      }, {
        // its published offers with their current price (src/agents/cards/ProfileAgentCard.ts)
        uri: ServiceOffersExtensionUri,
        description: expect.any(String),
        required: false,
        params: {
          offers: profile.offers.map((o: any) => ({
            offerId: o.id,
            slug: o.slug,
            title: o.title,
            pricingModel: o.pricingModel,
            url: expect.stringMatching(new RegExp(`/api/v1/offers/${o.id}$`)),
            prices: [{
              networkPublicId: o.currentPrice.networkPublicId,
              assetPublicId: o.currentPrice.assetPublicId,
              units: o.currentPrice.units,
              x402ResourceUrl: null
            }]
          }))
        }
      }])
    }))
})
