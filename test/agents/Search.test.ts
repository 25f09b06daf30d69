/**
 * The directory's relevance search (Agents_ListAgents' `q` and `sort=relevance`) and
 * Agents_ListAgentFacets through the HTTP stack: typo tolerance, field weights, signed cursor
 * pages in relevance order, facet counts under filters, the capabilities of agents registered
 * and imported through the API (an A2A Agent Card and an MCP server from real local servers)
 * searchable and filterable, the relevance order's candidate bound (the first matches in rank order),
 * and the MCP tool `search_agents` answering as the REST list.
 */
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgentCard } from "../../demo/agents/imports/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { AgentFacets } from "../../schema/agents.js"
import { type AgentFilters, AgentsRepo } from "../../src/agents/Repo.js"
import { queryWords, RelevanceCandidates, tsqueryText } from "../../src/agents/SearchQuery.js"
import { Data } from "../../schema/envelope.js"
import { testConfig } from "../support/config.js"
import { TestMcpServer } from "../support/mcpServer.js"
import { call, expectMeta, expectProblem, type Reply, type Session, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

const list = "/api/v1/agents"
const facetsPath = "/api/v1/agents/facets"
const apiKey = { "x-api-key": DemoApiKeys.public.key }
const decodeFacets = Schema.decodeUnknownSync(Data(AgentFacets), { onExcessProperty: "error" })

/** The weather agent's A2A Agent Card, served by the stub host. */
const weatherCard = {
  ...DemoAgentCard,
  name: "Nimbus",
  description: "City-level outlooks.",
  url: "https://nimbus.example/a2a/v1",
  additionalInterfaces: [],
  provider: { organization: "Nimbus Labs", url: "https://nimbus.example" },
  skills: [
    { id: "forecast", name: "Weather forecast", description: "Hourly and daily forecasts for any city.", tags: ["weather", "Forecast"] },
    { id: "alerts", name: "Storm alerts", description: "Warns before storms.", tags: ["weather"] }
  ]
}

/** A local host serving the weather card. */
const StubHost = Effect.acquireRelease(
  Effect.async<Server>((resume) => {
    const server = createServer((req, res) => {
      if (req.url === "/.well-known/agent-card.json") {
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(weatherCard))
      }
      res.writeHead(404, { "content-type": "application/json" }).end("{}")
    })
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) =>
    Effect.sync(() => server.closeAllConnections()).pipe(
      Effect.zipRight(Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      }))
    )
).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`))

const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } })

const names = (reply: { body: any }): Array<string> => reply.body.data.map((a: { name: string }) => a.name)
const search = (query: string) => call("GET", `${list}?${query}`)
const facets = (query = "") =>
  Effect.map(call("GET", `${facetsPath}${query === "" ? "" : `?${query}`}`), (reply) => {
    expect(reply.status, reply.text).toBe(200)
    expectMeta(reply)
    expect(() => decodeFacets(reply.body)).not.toThrow()
    return reply.body.data as typeof AgentFacets.Encoded
  })
/** `{value: count}` of a facet. */
const counts = (entries: ReadonlyArray<{ value: string; count: string }>) =>
  Object.fromEntries(entries.map((e) => [e.value, Number(e.count)]))

let n = 0
/** Registers an agent of the Acme workspace through Agents_CreateAgent and returns its profile. */
const register = (session: Session, body: { name: string; tagline?: string | null; description?: string }) =>
  Effect.gen(function*() {
    const reply = yield* call("POST", list, {
      session,
      body: {
        workspaceId: DemoWorkspaces.acme.id,
        canonicalSlug: `search-test-${++n}`,
        tagline: null,
        description: "",
        ...body
      }
    })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data as { entityId: string; name: string }
  })

/** Imports `url` (of `kind`) into `agent` and waits until the import SUCCEEDED. */
const imported = (session: Session, agent: string, kind: string, url: string) =>
  Effect.gen(function*() {
    const started = yield* call("POST", `${list}/${agent}/imports`, { session, body: { kind, url } })
    expect(started.status, started.text).toBe(202)
    const done = yield* waitFor(
      `import of ${url}`,
      until(
        Effect.map(call("GET", `${list}/${agent}/imports/${started.body.data.id}`, { session }), (r) => r.body.data),
        (d: { state: string }) => d.state === "SUCCEEDED" || d.state === "FAILED"
      ),
      20_000,
      50
    )
    expect(done.state, JSON.stringify(done)).toBe("SUCCEEDED")
  })

/** Every page of `query` at `limit` following nextCursor (the API key's caller). */
const allPages = (query: string, limit: number) =>
  Effect.gen(function*() {
    const items: Array<string> = []
    let cursor: string | null = null
    let pages = 0
    do {
      const reply: Reply = yield* call("GET", `${list}?${query}&limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`, {
        headers: apiKey
      })
      expect(reply.status, reply.text).toBe(200)
      items.push(...names(reply))
      cursor = reply.body.nextCursor
      pages++
    } while (cursor !== null && pages < 30)
    return items
  })

layer(server.layer)("directory search", (it) => {
  it.effect("facets of the demo directory: every count agrees with the list under the same filters", () =>
    Effect.gen(function*() {
      const whole = yield* facets()
      const listed = yield* search("limit=100")
      expect(Number(whole.total)).toBe(listed.body.data.length)
      for (const filter of ["", "networks=base", "verificationStates=VERIFIED&verificationStates=PARTIAL", "protocols=erc-8004", "q=research"]) {
        const f = yield* facets(filter)
        const base = filter === "" ? "" : `${filter}&`
        expect(Number(f.total), filter).toBe((yield* search(`${base}limit=100`)).body.data.length)
        for (const [facet, param] of [["protocols", "protocols"], ["networks", "networks"], ["verificationStates", "verificationStates"]] as const) {
          for (const { value, count } of f[facet]) {
            const narrowed = yield* search(`${base}${param}=${value}&limit=100`)
            // the facet counts agents having the value among those matching the filters (a filter on the same
            // facet is an alternative, so the list narrows with the value only when it is not filtered yet)
            if (!filter.includes(`${param}=`)) expect(narrowed.body.data.length, `${filter} ${facet}=${value}`).toBe(Number(count))
          }
        }
      }
      // the demo data: five agents on base; Atlas's imports give it skill tags, sources and the offer
      const base = yield* facets("networks=base")
      expect(base.total).toBe("5")
      expect(counts(base.networks)).toEqual({ base: 5 })
      expect(counts(base.verificationStates)).toEqual({ VERIFIED: 2, PARTIAL: 1, CONFLICTED: 2 })
      expect(counts(base.protocols)).toEqual({ "erc-8004": 4, a2a: 2, x402: 2, mcp: 1, openapi: 1 })
      expect(counts(base.skillTags)).toEqual({ citations: 1, markets: 1, research: 1 })
      expect(counts(base.hasOffers)).toEqual({ true: 1, false: 4 })
      expect(counts(base.sources)).toEqual({ DIRECTORY: 4, A2A_AGENT_CARD: 1, ERC8004_REGISTRATION: 1 })
      // most frequent first, ties by value
      expect(base.protocols.map((p) => p.value)).toEqual(["erc-8004", "a2a", "x402", "mcp", "openapi"])
      expect(base.verificationStates.map((p) => p.value)).toEqual(["CONFLICTED", "VERIFIED", "PARTIAL"])
      // a query of no word matches no agent
      expect((yield* facets("q=%25")).total).toBe("0")
      // an API key with agents:read reads them too; bad filters are 400s naming the parameter
      expect((yield* call("GET", facetsPath, { headers: apiKey })).status).toBe(200)
      const bad = yield* call("GET", `${facetsPath}?verificationStates=NOPE`)
      expectProblem(bad, 400, "invalid-request")
      expect(bad.body.errors[0].pointer).toBe("/verificationStates")
      expect(bad.text).not.toContain("NOPE")
    }))

  it.scoped("an imported weather agent: `wether forcast` ranks it first, its skills, tags, protocol and MCP tools are searchable and filterable", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const host = yield* StubHost
      const nimbus = yield* register(owner, { name: "Nimbus", tagline: "City outlooks" })
      // a competitor naming both words only in its description
      const umbrella = yield* register(owner, { name: "Umbrella Shop", description: "Sells umbrellas whatever the weather forecast says." })
      // before the import, nothing of Nimbus speaks of weather
      expect(names(yield* search("q=weather"))).toEqual([umbrella.name])

      yield* imported(owner, nimbus.entityId, "A2A_AGENT_CARD", `${host}/.well-known/agent-card.json`)
      const typo = yield* search(`q=${encodeURIComponent("wether forcast")}`)
      expect(typo.status, typo.text).toBe(200)
      expect(names(typo)[0]).toBe("Nimbus")
      expect(names(typo)).toContain("Umbrella Shop")
      // relevance is the default with q, and explicit
      expect(names(yield* search(`q=${encodeURIComponent("wether forcast")}&sort=relevance`))).toEqual(names(typo))
      // accents and case are ignored
      expect(names(yield* search(`q=${encodeURIComponent("WÉATHER fórecast")}`))[0]).toBe("Nimbus")
      // the card made it an A2A agent: the protocol filter finds it, with the text query
      const a2a = yield* search("protocols=a2a&q=weather")
      expect(names(a2a)).toEqual(["Nimbus"])
      expect(a2a.body.data[0].protocols).toEqual(["a2a"])
      const f = yield* facets("q=weather")
      expect(f.total).toBe("2")
      expect(counts(f.skillTags)).toEqual({ weather: 1, forecast: 1 })
      expect(counts(f.sources)).toEqual({ A2A_AGENT_CARD: 1, DIRECTORY: 1 })
      expect(counts(f.protocols)).toEqual({ a2a: 1 })

      // its MCP server: the `mcp` protocol, and its tools' names and descriptions
      const mcp = yield* TestMcpServer()
      mcp.offer.tools = [{
        name: "get_precipitation",
        description: "Millimetres of rain expected per hour",
        inputSchema: { type: "object", properties: { city: { type: "string" } } }
      }]
      yield* imported(owner, nimbus.entityId, "MCP_SERVER", `${mcp.origin}/mcp`)
      expect(names(yield* search("protocols=mcp&q=nimbus"))).toEqual(["Nimbus"])
      // the connection's refresh stores the tools; the search document follows in the same transaction
      const byTool = yield* waitFor(
        "the tool searchable",
        until(search("q=precipitation"), (r) => r.body.data?.length === 1),
        20_000,
        50
      )
      expect(names(byTool)).toEqual(["Nimbus"])
      expect(names(yield* search("q=millimetres"))).toEqual(["Nimbus"])
    }))

  it.effect("field weights: a word in the name outranks it in the tagline, which outranks it in the description", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      yield* register(owner, { name: "Plain Agent", description: "It can quokka when asked." })
      yield* register(owner, { name: "Quokka Desk", description: "Helps." })
      yield* register(owner, { name: "Second Agent", tagline: "Quokka counting" })
      expect(names(yield* search("q=quokka"))).toEqual(["Quokka Desk", "Second Agent", "Plain Agent"])
      // with another sort the same agents, in that sort
      expect(names(yield* search("q=quokka&sort=name"))).toEqual(["Plain Agent", "Quokka Desk", "Second Agent"])
      // the slug's words count as the name's
      const slugged = yield* search(`q=${encodeURIComponent("search-test")}`)
      expect(slugged.body.data.length).toBeGreaterThanOrEqual(3)
    }))

  it.effect("the relevance order scores only the first RelevanceCandidates matches in rank order", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const plain = yield* register(owner, { name: "Plain Helper", description: "It can wombat when asked." })
      const second = yield* register(owner, { name: "Second Helper", tagline: "Wombat counting" })
      const best = yield* register(owner, { name: "Wombat Desk", description: "Helps." })
      const ids = [plain.entityId, second.entityId, best.entityId]
      const repo = yield* AgentsRepo.pipe(Effect.provide(AgentsRepo.Default))
      const sql = yield* SqlClient.SqlClient
      const words = queryWords("wombat")
      const filters: AgentFilters = {
        networks: [],
        protocols: [],
        verificationStates: [],
        search: { tsquery: tsqueryText(yield* repo.resolveWords(words)), words: words.join(" ") }
      }
      /** The three agents' ids in the rank order (sort=rank), as one string. */
      const rankOrder = Effect.map(
        sql<{ id: string }>`SELECT id FROM agents WHERE id IN ${sql.in(ids)} ORDER BY COALESCE(rank, 1e78), id`,
        (rows) => rows.map((r) => r.id).join(",")
      )
      const listed = (bound: number | undefined) =>
        Effect.map(
          bound === undefined
            ? repo.list(filters, "relevance", undefined, 10)
            : Effect.provideService(repo.list(filters, "relevance", undefined, 10), RelevanceCandidates, bound),
          (rows) => rows.map((r) => r.agent.publicId)
        )
      // the background projections may rank the new agents meanwhile: read while the rank order holds still
      const seen = yield* waitFor("a rank order that holds still", Effect.gen(function*() {
        const before = yield* rankOrder
        const bounded = yield* listed(2)
        const whole = yield* listed(undefined)
        return before === (yield* rankOrder) ? { order: before.split(","), bounded, whole } : undefined
      }), 60_000, 200)
      // below the bound: every match, in relevance order (the name first)
      expect(seen.whole).toEqual([best.entityId, second.entityId, plain.entityId])
      // at a bound of 2: the first two in rank order, and only they, still in relevance order
      expect([...seen.bounded].sort()).toEqual(seen.order.slice(0, 2).sort())
      expect(seen.bounded).toEqual(seen.whole.filter((id) => seen.order.slice(0, 2).includes(id)))
      // sort=rank still lists every match
      const ranked = yield* repo.list(filters, "rank", undefined, 10).pipe(Effect.provideService(RelevanceCandidates, 2))
      expect(ranked.map((r) => r.agent.publicId).sort()).toEqual([...ids].sort())
    }))

  it.effect("relevance pages: signed cursors walk the whole order at every limit, bound to q and the sort", () =>
    Effect.gen(function*() {
      // the blend reads trust and rank, which the background projections may still be moving after the
      // previous tests' imports: the walk is compared once the order holds still across it
      const walked = yield* waitFor("pages that walk the whole order", Effect.gen(function*() {
        const whole = names(yield* call("GET", `${list}?q=agent&limit=100`, { headers: apiKey }))
        const walks = [yield* allPages("q=agent", 1), yield* allPages("q=agent", 2), yield* allPages("q=agent", 3)]
        const again = names(yield* call("GET", `${list}?q=agent&limit=100`, { headers: apiKey }))
        return JSON.stringify(whole) === JSON.stringify(again) ? { whole, walks } : undefined
      }), 60_000, 500)
      expect(walked.whole.length).toBeGreaterThanOrEqual(3)
      for (const walk of walked.walks) expect(walk).toEqual(walked.whole)
      const first = yield* call("GET", `${list}?q=agent&limit=1`)
      const cursor = encodeURIComponent(first.body.nextCursor)
      expectProblem(yield* call("GET", `${list}?q=agents&limit=1&cursor=${cursor}`), 400, "invalid-cursor")
      expectProblem(yield* call("GET", `${list}?q=agent&sort=rank&limit=1&cursor=${cursor}`), 400, "invalid-cursor")
      expect((yield* call("GET", `${list}?q=agent&limit=1&cursor=${cursor}`)).status).toBe(200)
      // the default sort with q is relevance: naming it is the same query
      expect((yield* call("GET", `${list}?q=agent&sort=relevance&limit=1&cursor=${cursor}`)).status).toBe(200)
    }))

  it.scoped("the MCP tool search_agents answers the REST list's page", () =>
    Effect.gen(function*() {
      const address = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "search-test", version: "1.0.0" })
          await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${address.port}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${DemoApiKeys.public.key}` } }
          }))
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      for (const args of [{ q: "wether forcast" }, { q: "quokka", limit: 2 }, { q: "research", protocols: ["a2a"] }]) {
        const tool = yield* Effect.promise(() => client.callTool({ name: "search_agents", arguments: args }))
        expect(tool.isError, JSON.stringify(tool)).toBeFalsy()
        const structured = tool.structuredContent as { data: Array<unknown> }
        const query = Object.entries(args).flatMap(([k, v]) => Array.isArray(v) ? v.map((x) => `${k}=${x}`) : [`${k}=${encodeURIComponent(String(v))}`])
        const rest = yield* call("GET", `${list}?${query.join("&")}`, { headers: apiKey })
        expect(structured.data).toEqual(rest.body.data)
      }
    }))
})
