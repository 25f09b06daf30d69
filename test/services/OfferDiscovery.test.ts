/**
 * A published offer is found where agents look: the MCP tool `list_agent_offers` of the directory's
 * MCP server (answering as Services_ListAgentOffers, with a real SDK client), the agent's A2A Agent
 * Card built by the directory (the service-offers extension, read through `@a2a-js/sdk`'s card
 * resolver) and the agent's profile.
 */
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoAssets, DemoNetworks } from "../../demo/common.js"
import { ServiceOffersExtensionUri } from "../../schema/a2aOffersExtension.js"
import { call, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const atlas = DemoAgents[0]
const publicKey = DemoApiKeys.public.key
const baseUrl = "https://directory.test"

const connect = Effect.flatMap(HttpServer.HttpServer, (server) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const address = server.address as HttpServer.TcpAddress
      const client = new Client({ name: "offers-test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${address.port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${publicKey}` } }
      }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  ))

/** Creates, prices (X402 on Base) and publishes an offer of Atlas; returns it as published. */
const publishX402Offer = (slug: string) => Effect.gen(function*() {
  const owner = yield* signIn("owner")
  const created = yield* call("POST", "/api/v1/offers", {
    session: owner,
    body: {
      agentId: atlas.id,
      title: "Pay-per-question research",
      slug,
      description: "One research question answered, paid per request over x402.",
      pricingModel: "PER_REQUEST",
      termsMarkdown: "# Terms\n\nOne answer per payment."
    }
  })
  expect(created.status, created.text).toBe(201)
  const id = created.body.data.id as string
  const priced = yield* call("PUT", `/api/v1/offers/${id}/prices`, {
    session: owner,
    body: { version: 1, prices: [{ networkPublicId: DemoNetworks.base.id, assetPublicId: DemoAssets.usdc.id, units: "250000", x402: true }] }
  })
  expect(priced.status, priced.text).toBe(200)
  const published = yield* call("POST", `/api/v1/offers/${id}/publish`, { session: owner, body: { version: 2 } })
  expect(published.status, published.text).toBe(200)
  return published.body.data
})

const server = makeTestServer()

layer(server.layer)("a published offer in the MCP tool list_agent_offers and the agent's A2A card", (it) => {
  it.scoped("list_agent_offers answers as Services_ListAgentOffers; an unknown agent is a tool error 404", () =>
    Effect.gen(function*() {
      const offer = yield* publishX402Offer("per-question")
      const client = yield* connect
      const { tools } = yield* Effect.promise(() => client.listTools())
      const tool = tools.find((t) => t.name === "list_agent_offers")!
      expect(tool.inputSchema.required).toEqual(["agentId"])
      expect(Object.keys(tool.inputSchema.properties!)).toEqual(expect.arrayContaining(["agentId", "limit", "cursor"]))
      expect(tool.description).toContain("Services_ListAgentOffers")

      const result = yield* Effect.promise(() => client.callTool({ name: "list_agent_offers", arguments: { agentId: atlas.id } }))
      expect(result.isError).toBeFalsy()
      const rest = yield* call("GET", `/api/v1/agents/${atlas.id}/offers`, { headers: { "x-api-key": publicKey } })
      expect(rest.status, rest.text).toBe(200)
      const structured = result.structuredContent as { data: Array<any>; nextCursor: string | null }
      expect(structured.data).toEqual(rest.body.data)
      expect(structured.nextCursor).toBeNull()
      expect(structured.data.map((o) => o.id)).toContain(offer.id)
      const text = (result.content as Array<{ text: string }>)[0]!.text
      expect(text).toContain("Pay-per-question research")
      expect(text).toContain(`/api/v1/x402/offers/${offer.id}/purchase`)

      // pages through the tool, as through REST
      const first = yield* Effect.promise(() => client.callTool({ name: "list_agent_offers", arguments: { agentId: atlas.id, limit: 1 } }))
      const page = first.structuredContent as { data: Array<any>; nextCursor: string | null }
      expect(page.data).toHaveLength(1)
      const second = yield* Effect.promise(() =>
        client.callTool({ name: "list_agent_offers", arguments: { agentId: atlas.id, limit: 1, cursor: page.nextCursor } })
      )
      expect((second.structuredContent as { data: Array<any> }).data[0].id).not.toBe(page.data[0].id)

      const missing = yield* Effect.promise(() => client.callTool({ name: "list_agent_offers", arguments: { agentId: randomUUID() } }))
      expect(missing.isError).toBe(true)
      expect(JSON.stringify(missing.content)).toContain("agent-not-found")
    }), { timeout: 120_000 })

  it.effect("the agent's built A2A card lists its published offers in the service-offers extension", () =>
    Effect.gen(function*() {
      const offer = yield* publishX402Offer("per-question-card")
      // Atlas's own published card is served byte for byte: without it, the directory builds one
      const sql = yield* SqlClient.SqlClient
      yield* sql`DELETE FROM agent_a2a_cards WHERE agent_id = ${atlas.id}`
      const reply = yield* call("GET", `/api/v1/agents/${atlas.id}/agent-card`)
      expect(reply.status, reply.text).toBe(200)
      const extension = reply.body.capabilities.extensions.find((e: any) => e.uri === ServiceOffersExtensionUri)
      expect(extension).toMatchObject({ required: false, description: expect.any(String) })
      const listed = yield* call("GET", `/api/v1/agents/${atlas.id}/offers`)
      const id = offer.id
      const entry = extension.params.offers.find((o: any) => o.offerId === id)
      expect(entry).toEqual({
        offerId: id,
        slug: "per-question-card",
        title: "Pay-per-question research",
        pricingModel: "PER_REQUEST",
        url: `${baseUrl}/api/v1/offers/${id}`,
        prices: [{
          networkPublicId: DemoNetworks.base.id,
          assetPublicId: DemoAssets.usdc.id,
          units: "250000",
          x402ResourceUrl: `${baseUrl}/api/v1/x402/offers/${id}/purchase`
        }]
      })
      // every published offer of the agent is there, and one skill each
      expect(extension.params.offers.map((o: any) => o.offerId).sort()).toEqual(listed.body.data.map((o: any) => o.id).sort())
      expect(reply.body.skills.map((s: any) => s.id)).toContain("offer:per-question-card")
    }))
})
