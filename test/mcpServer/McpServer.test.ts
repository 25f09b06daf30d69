/**
 * The directory's own MCP server at `/mcp`, with real clients against
 * the real listening server on the demo data: `@modelcontextprotocol/sdk`'s `Client` over
 * `StreamableHTTPClientTransport`, raw HTTP for the transport-level answers, and the MCP
 * Inspector's CLI mode in a child process.
 */
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { join } from "node:path"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgents, DemoRegistries } from "../../demo/agents/seed.js"
import type { AccessEvent } from "../../layers/Logging.js"
import { call, expectProblem } from "../support/http.js"
import { testConfig } from "../support/config.js"
import { makeTestServer } from "../support/TestServer.js"

/** The MCP Inspector CLI's build folder (the dev dependency `@modelcontextprotocol/inspector-cli`). */
const InspectorBuild = join(process.cwd(), "node_modules", "@modelcontextprotocol", "inspector-cli", "build")

const atlas = DemoAgents[0]
const publicKey = DemoApiKeys.public.key
const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

/** The listening server's `/mcp` URL. */
const mcpUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address as HttpServer.TcpAddress
  return new URL(`http://127.0.0.1:${address.port}/mcp`)
})

/** An SDK client connected (initialize + initialized) with `headers` on every request; closed with the scope. */
const connect = (headers: Record<string, string> = {}) =>
  Effect.flatMap(mcpUrl, (url) =>
    Effect.acquireRelease(
      Effect.promise(async () => {
        const client = new Client({ name: "directory-test", version: "1.0.0" })
        const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } })
        await client.connect(transport)
        return { client, transport }
      }),
      ({ client }) => Effect.promise(() => client.close())
    ))

/** What a promise rejects with (the test fails if it resolves). */
const rejection = <A>(promise: () => Promise<A>) =>
  Effect.promise(() => promise().then(() => expect.fail("expected a rejection"), (e: unknown) => e))

const initialize = (protocolVersion = "2025-06-18") => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } }
})
const mcpHeaders = { accept: "application/json, text/event-stream", "content-type": "application/json" }

/** A raw POST to `/mcp`. */
const post = (body: unknown, headers: Record<string, string> = {}) =>
  call("POST", "/mcp", { body, headers: { ...mcpHeaders, ...headers }, idempotencyKey: null })

/** The problem document a failed tool call carries. */
const toolProblem = (reply: unknown) => {
  const result = reply as { readonly isError?: unknown; readonly content?: unknown }
  expect(result.isError).toBe(true)
  const [content] = result.content as ReadonlyArray<{ readonly type: string; readonly text: string }>
  expect(content!.type).toBe("text")
  return JSON.parse(content!.text) as { type: string; title: string; status: number; detail: string; errors?: Array<{ pointer: string; detail: string }> }
}

const accessEvents: Array<AccessEvent> = []
const server = makeTestServer({}, { accessLog: (e) => accessEvents.push(e) })

/** The directory's MCP tools, in the order tools/list gives them. */
const ToolNames = ["search_agents", "get_agent", "get_agent_trust", "resolve_agent_identities", "get_agent_activity", "list_protocols", "list_agent_offers", "search_jobs", "get_job"]

layer(server.layer)("MCP server /mcp (SDK client, demo data)", (it) => {
  it.scoped("initialize speaks 2025-06-18 and opens a session; tools/list shows every tool with its schemas", () =>
    Effect.gen(function*() {
      const raw = yield* post(initialize())
      expect(raw.status, raw.text).toBe(200)
      expect(raw.body.result.protocolVersion).toBe("2025-06-18")
      expect(raw.body.result.serverInfo.name).toBe("agent-directory")
      expect(raw.headers["mcp-session-id"]).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect(raw.headers["ratelimit"]).toMatch(/^"anonymous";r=\d+;t=\d+$/)

      const { client } = yield* connect(bearer(publicKey))
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((t) => t.name)).toEqual([
        "search_agents",
        "get_agent",
        "get_agent_trust",
        "resolve_agent_identities",
        "get_agent_activity",
        "list_protocols",
        "list_agent_offers",
        "search_jobs",
        "get_job"
      ])
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
      // derived from the REST operations' schemas: the query's filters, the path, the body
      expect(Object.keys(byName["search_agents"]!.inputSchema.properties!)).toEqual(
        ["networks", "protocols", "verificationStates", "q", "sort", "limit", "cursor"]
      )
      expect(byName["search_agents"]!.inputSchema.properties!["limit"]).toMatchObject({ type: "integer", minimum: 1, maximum: 100 })
      expect(byName["get_agent"]!.inputSchema.required).toEqual(["entityPublicId"])
      expect(byName["resolve_agent_identities"]!.inputSchema.required).toEqual(["locators"])
      expect(Object.keys(byName["get_agent_activity"]!.inputSchema.properties!)).toEqual(
        expect.arrayContaining(["entityPublicId", "sourceKinds", "networks", "activityKeys", "limit", "cursor"])
      )
      for (const tool of tools) {
        expect(tool.outputSchema?.type, tool.name).toBe("object")
        expect(tool.outputSchema?.required, tool.name).toEqual(expect.arrayContaining(["data", "meta"]))
        expect(tool.annotations?.readOnlyHint).toBe(true)
      }
      expect(byName["search_agents"]!.outputSchema!.required).toContain("nextCursor")
      expect(byName["get_agent_activity"]!.description).toContain("x-rate-cost 2")
    }))

  it.scoped("negotiates the revision: the newest the SDK supports, each older supported one as asked, else the newest", () =>
    Effect.gen(function*() {
      expect(LATEST_PROTOCOL_VERSION).toBe("2025-11-25")
      for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
        const raw = yield* post(initialize(version))
        expect(raw.status, raw.text).toBe(200)
        expect(raw.body.result.protocolVersion).toBe(version)
      }
      const unknown = yield* post(initialize("2023-01-01"))
      expect(unknown.body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION)
      // the SDK's client asks for the newest and gets it
      const { transport } = yield* connect()
      expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION)
    }))

  it.scoped("search_agents: a filter and cursor pages, each page the REST page (structuredContent) plus a text", () =>
    Effect.gen(function*() {
      const { client } = yield* connect(bearer(publicKey))
      const args = { verificationStates: ["VERIFIED", "CONFLICTED"], sort: "name", limit: 2 }
      const first = yield* Effect.promise(() => client.callTool({ name: "search_agents", arguments: args }))
      expect(first.isError).toBeFalsy()
      const page1 = first.structuredContent as { data: Array<{ name: string; verificationState: string }>; nextCursor: string | null; meta: unknown }
      expect(page1.data.map((a) => a.name)).toEqual(["Atlas Research", "Beacon Monitor"])
      expect(page1.nextCursor).not.toBeNull()
      const [text] = first.content as Array<{ type: string; text: string }>
      expect(text!.text).toContain("2 agent(s)")
      expect(text!.text).toContain("Atlas Research")

      const second = yield* Effect.promise(() =>
        client.callTool({ name: "search_agents", arguments: { ...args, cursor: page1.nextCursor } })
      )
      const page2 = second.structuredContent as typeof page1
      expect(page2.data.map((a) => a.name)).toEqual(["Gamma Oracle", "Harbor Relay"])
      expect(page2.nextCursor).toBeNull()

      // the same answer as REST with the same key (the cursor is bound to the caller, as in REST)
      const rest = yield* call("GET", "/api/v1/agents?verificationStates=VERIFIED&verificationStates=CONFLICTED&sort=name&limit=2", { headers: { "x-api-key": publicKey } })
      expect(rest.status).toBe(200)
      expect(page1.data).toEqual(rest.body.data)
      expect(page1.nextCursor).toBe(rest.body.nextCursor)

      // a cursor sent with other filters is the REST 400, as a tool error
      const crossed = yield* Effect.promise(() =>
        client.callTool({ name: "search_agents", arguments: { sort: "rank", cursor: page1.nextCursor } })
      )
      expect(toolProblem(crossed)).toMatchObject({ type: "https://agent-directory.dev/problems/invalid-cursor", status: 400 })
    }))

  it.scoped("get_agent, resolve_agent_identities, get_agent_activity and list_protocols answer as REST does", () =>
    Effect.gen(function*() {
      const { client } = yield* connect(bearer(publicKey))
      const headers = { "x-api-key": publicKey }

      const agent = yield* Effect.promise(() => client.callTool({ name: "get_agent", arguments: { entityPublicId: atlas.id } }))
      const profile = yield* call("GET", `/api/v1/agents/${atlas.id}`, { headers })
      expect((agent.structuredContent as { data: unknown }).data).toEqual(profile.body.data)
      expect((agent.content as Array<{ text: string }>)[0]!.text).toContain("Atlas Research")

      const locator = { networkFamily: "EVM", network: "base", locatorKind: "REGISTRY_TOKEN", registry: DemoRegistries.erc8004, nativeId: "1" }
      const resolved = yield* Effect.promise(() => client.callTool({ name: "resolve_agent_identities", arguments: { locators: [locator] } }))
      const results = (resolved.structuredContent as { data: { results: Array<{ status: string; candidates: Array<{ entityId: string }> }> } }).data.results
      expect(results[0]!.status).toBe("UNIQUE")
      expect(results[0]!.candidates.map((c) => c.entityId)).toEqual([atlas.id])
      const restResolved = yield* call("POST", "/api/v1/resolve/agent-identities", { body: { locators: [locator] }, headers, idempotencyKey: null })
      expect(results).toEqual(restResolved.body.data.results)

      const activity = yield* Effect.promise(() =>
        client.callTool({ name: "get_agent_activity", arguments: { entityPublicId: atlas.id, sourceKinds: ["CHAIN_OBSERVATION"], limit: 2 } })
      )
      const restActivity = yield* call("GET", `/api/v1/agents/${atlas.id}/activity?sourceKinds=CHAIN_OBSERVATION&limit=2`, { headers })
      const feed = activity.structuredContent as { data: Array<unknown>; nextCursor: string | null }
      expect(feed.data).toEqual(restActivity.body.data)
      expect(feed.data).toHaveLength(2)
      expect(feed.nextCursor).not.toBeNull()

      const protocols = yield* Effect.promise(() => client.callTool({ name: "list_protocols", arguments: {} }))
      const restProtocols = yield* call("GET", "/api/v1/protocols", { headers })
      expect((protocols.structuredContent as { data: unknown }).data).toEqual(restProtocols.body.data)
    }))

  it.scoped("failures are tool errors carrying the problem: unknown agent, invalid arguments, missing scope", () =>
    Effect.gen(function*() {
      const { client } = yield* connect(bearer(publicKey))
      const missing = yield* Effect.promise(() =>
        client.callTool({ name: "get_agent", arguments: { entityPublicId: "00000000-0000-4000-8000-000000000000" } })
      )
      expect(toolProblem(missing)).toMatchObject({ type: "https://agent-directory.dev/problems/agent-not-found", status: 404 })

      const invalid = yield* Effect.promise(() => client.callTool({ name: "search_agents", arguments: { limit: 0, colour: "red" } }))
      const problem = toolProblem(invalid)
      expect(problem.type).toBe("https://agent-directory.dev/problems/invalid-request")
      expect(problem.errors!.map((e) => e.pointer).sort()).toEqual(["/colour", "/limit"])
      expect(JSON.stringify(problem)).not.toContain("red")

      // the agents-only key lacks public:read, which the protocol catalog requires
      const { client: narrow } = yield* connect(bearer(DemoApiKeys.agentsOnly.key))
      const refused = yield* Effect.promise(() => narrow.callTool({ name: "list_protocols", arguments: {} }))
      expect(toolProblem(refused)).toMatchObject({ type: "https://agent-directory.dev/problems/insufficient-scope", status: 403 })
    }))

  it.scoped("agent://{entityPublicId}: a resource template, listed, completed and read as the REST profile", () =>
    Effect.gen(function*() {
      const { client } = yield* connect(bearer(publicKey))
      const { resourceTemplates } = yield* Effect.promise(() => client.listResourceTemplates())
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["agent://{entityPublicId}"])
      const { resources } = yield* Effect.promise(() => client.listResources())
      expect(resources.map((r) => r.uri)).toContain(`agent://${atlas.id}`)
      expect(resources.find((r) => r.uri === `agent://${atlas.id}`)?.title).toBe("Atlas Research")

      const read = yield* Effect.promise(() => client.readResource({ uri: `agent://${atlas.id}` }))
      const [content] = read.contents as Array<{ uri: string; mimeType: string; text: string }>
      expect(content!.mimeType).toBe("application/json")
      const rest = yield* call("GET", `/api/v1/agents/${atlas.id}`, { headers: { "x-api-key": publicKey } })
      expect(JSON.parse(content!.text).data).toEqual(rest.body.data)

      const completion = yield* Effect.promise(() =>
        client.complete({
          ref: { type: "ref/resource", uri: "agent://{entityPublicId}" },
          argument: { name: "entityPublicId", value: atlas.id.slice(0, 30) }
        })
      )
      expect(completion.completion.values).toContain(atlas.id)

      const unknown = yield* rejection(() => client.readResource({ uri: "agent://00000000-0000-4000-8000-000000000000" }))
      expect(String(unknown)).toContain("No agent has this entity UUID")
    }))

  it.scoped("a bad key is HTTP 401 with the REST problem body; the client cannot connect", () =>
    Effect.gen(function*() {
      const badKey = "adk_0a1b2c3d4e5f_" + "x".repeat(43)
      const rest = yield* call("GET", "/api/v1/agents", { headers: bearer(badKey) })
      const mcp = yield* post(initialize(), bearer(badKey))
      expectProblem(mcp, 401, "unauthenticated")
      const strip = ({ instance: _, requestId: __, ...rest }: Record<string, unknown>) => rest
      expect(strip(mcp.body)).toEqual(strip(rest.body))

      const error = yield* Effect.flatMap(mcpUrl, (url) =>
        rejection(() => new Client({ name: "bad", version: "1" }).connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer(badKey) } })))
      )
      expect(error).toBeInstanceOf(StreamableHTTPError)
      expect((error as StreamableHTTPError).code).toBe(401)
      // the access log shows the path and status, never the key
      expect(accessEvents.some((e) => e.path === "/mcp" && e.status === 401)).toBe(true)
      expect(JSON.stringify(accessEvents)).not.toContain(badKey)
    }))

  it.scoped("Origin: a foreign browser origin is refused (403, or the 401 with a key), a loopback origin of this host is served", () =>
    Effect.gen(function*() {
      const foreign = yield* post(initialize(), { origin: "https://evil.example" })
      expectProblem(foreign, 403, "origin-not-allowed")
      const foreignWithKey = yield* post(initialize(), { origin: "https://evil.example", ...bearer(publicKey) })
      expectProblem(foreignWithKey, 401, "unauthenticated")
      const url = yield* mcpUrl
      const own = yield* post(initialize(), { origin: `http://${url.host}` })
      expect(own.status, own.text).toBe(200)
      // a key used from an origin its allowlist names (spec §5.4.2)
      const browser = yield* post(initialize(), { origin: "https://app.demo.agent-directory.dev", ...bearer(DemoApiKeys.browser.key) })
      expect(browser.status, browser.text).toBe(200)
    }))

  it.scoped("sessions: required after initialize, bound to their credential, ended by DELETE and by idling out", () =>
    Effect.gen(function*() {
      const noSession = yield* post({ jsonrpc: "2.0", id: 2, method: "tools/list" })
      expect(noSession.status).toBe(400)

      const opened = yield* post(initialize(), bearer(publicKey))
      const sessionId = opened.headers["mcp-session-id"]!
      const list = (headers: Record<string, string>) =>
        post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18", ...headers })
      const listed = yield* list(bearer(publicKey))
      expect(listed.status, listed.text).toBe(200)
      expect(listed.body.result.tools).toHaveLength(ToolNames.length)
      // another credential (here: none) does not see the session
      expect((yield* list({})).status).toBe(404)

      const ended = yield* call("DELETE", "/mcp", {
        headers: { ...bearer(publicKey), "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
        idempotencyKey: null
      })
      expect(ended.status, ended.text).toBe(200)
      expect((yield* list(bearer(publicKey))).status).toBe(404)

      const idle = (yield* post(initialize(), bearer(publicKey))).headers["mcp-session-id"]!
      const touch = () =>
        post({ jsonrpc: "2.0", id: 3, method: "ping" }, { ...bearer(publicKey), "mcp-session-id": idle, "mcp-protocol-version": "2025-06-18" })
      server.clock.advance(testConfig().mcpServer.sessionIdleSeconds * 1000 - 1000)
      expect((yield* touch()).status).toBe(200)
      server.clock.advance(testConfig().mcpServer.sessionIdleSeconds * 1000)
      expect((yield* touch()).status).toBe(404)

      const get = yield* call("GET", "/mcp", { headers: { accept: "text/event-stream" } })
      expect(get.status).toBe(405)
    }))

  it.scoped("the MCP Inspector's CLI mode lists the tools and calls one", () =>
    Effect.gen(function*() {
      const url = yield* mcpUrl
      const inspector = (...args: Array<string>) =>
        Effect.promise(() =>
          new Promise<string>((resolve, reject) =>
            execFile(
              "node",
              [join(InspectorBuild, "cli.js"), "--cli", url.href, "--transport", "http", "--header", `Authorization: Bearer ${publicKey}`, ...args],
              // inspector-cli 1.0.3 looks for its package.json as `../package.json` of the working directory
              // (but imports it relative to its module): run it from its build folder (docs/mcp-a2a.md)
              { timeout: 60_000, cwd: InspectorBuild },
              (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))
            )
          )
        )
      const listed = JSON.parse(yield* inspector("--method", "tools/list")) as { tools: Array<{ name: string; outputSchema?: unknown }> }
      expect(listed.tools.map((t) => t.name)).toEqual(ToolNames)
      expect(listed.tools.every((t) => t.outputSchema !== undefined)).toBe(true)
      const called = JSON.parse(
        yield* inspector("--method", "tools/call", "--tool-name", "get_agent", "--tool-arg", `entityPublicId=${atlas.id}`)
      ) as { structuredContent: { data: { name: string } } }
      expect(called.structuredContent.data.name).toBe("Atlas Research")
    }), { timeout: 120_000 })
})

const budget = makeTestServer({ budgets: { ...testConfig().budgets, apiKey: { limit: 6, windowSeconds: 60 } } })

layer(budget.layer)("MCP server /mcp: request budgets", (it) => {
  it.scoped("each request is charged (tool calls their x-rate-cost); a spent budget is the REST 429 answer", () =>
    Effect.gen(function*() {
      // initialize (1) and notifications/initialized (1)
      const { client } = yield* connect(bearer(publicKey))
      // get_agent_activity costs 2: 4 of 6 spent
      yield* Effect.promise(() => client.callTool({ name: "get_agent_activity", arguments: { entityPublicId: atlas.id } }))
      // 6 of 6
      yield* Effect.promise(() => client.callTool({ name: "get_agent_activity", arguments: { entityPublicId: atlas.id } }))
      const error = yield* rejection(() => client.callTool({ name: "get_agent", arguments: { entityPublicId: atlas.id } }))
      expect(error).toBeInstanceOf(StreamableHTTPError)
      expect((error as StreamableHTTPError).code).toBe(429)
      expect((error as Error).message).toContain("https://agent-directory.dev/problems/rate-limited")

      // the raw answer is REST's: problem+json 429 with Retry-After and the RateLimit headers
      const raw = yield* post(initialize(), bearer(publicKey))
      expectProblem(raw, 429, "rate-limited")
      expect(Number(raw.headers["retry-after"])).toBeGreaterThan(0)
      expect(raw.headers["ratelimit-policy"]).toBe(`"api-key";q=6;w=60`)
      expect(raw.headers["ratelimit"]).toMatch(/^"api-key";r=0;t=\d+$/)
      const rest = yield* call("POST", "/api/v1/resolve/agent-identities", {
        body: { locators: [{ networkFamily: "DID", locatorKind: "DID", nativeId: "did:web:delta-scribe.example" }] },
        headers: bearer(publicKey),
        idempotencyKey: null
      })
      expectProblem(rest, 429, "rate-limited")
      expect(raw.body.detail).toBe(rest.body.detail)
    }))
})

const crowded = makeTestServer({ mcpServer: { maxSessions: 2, sessionIdleSeconds: 60 } })

layer(crowded.layer)("MCP server /mcp: bounded sessions", (it) => {
  it.scoped("while MCP_MAX_SESSIONS are live a new session is 503 mcp-sessions-full with Retry-After; live ones go on", () =>
    Effect.gen(function*() {
      const first = yield* post(initialize())
      yield* post(initialize())
      const full = yield* post(initialize())
      expectProblem(full, 503, "mcp-sessions-full")
      expect(full.headers["retry-after"]).toBe("60")
      const ping = yield* post({ jsonrpc: "2.0", id: 2, method: "ping" }, {
        "mcp-session-id": first.headers["mcp-session-id"]!,
        "mcp-protocol-version": "2025-06-18"
      })
      expect(ping.status).toBe(200)
      // the others idle out: room again
      crowded.clock.advance(60_000)
      const again = yield* post(initialize())
      expect(again.status, again.text).toBe(200)
    }))
})

const batching = makeTestServer({ budgets: { ...testConfig().budgets, apiKey: { limit: 200, windowSeconds: 60 } } })

layer(batching.layer)("MCP server /mcp: JSON-RPC batches", (it) => {
  /** What the answer's `RateLimit` header says is left of the budget. */
  const remaining = (reply: { readonly headers: Record<string, string | undefined> }) =>
    Number(/;r=(\d+);/.exec(reply.headers["ratelimit"] ?? "")?.[1] ?? Number.NaN)
  const session = (protocolVersion: string) =>
    Effect.map(post(initialize(protocolVersion), bearer(publicKey)), (opened) => {
      expect(opened.status, opened.text).toBe(200)
      expect(opened.body.result.protocolVersion).toBe(protocolVersion)
      return { id: opened.headers["mcp-session-id"]!, left: remaining(opened) }
    })
  const lists = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i + 10, method: "tools/list" }))

  it.scoped("refused (400, JSON-RPC -32600) in 2025-06-18 and later sessions and outside a session, charged 1; a single message as before", () =>
    Effect.gen(function*() {
      for (const revision of ["2025-06-18", "2025-11-25"]) {
        const { id, left } = yield* session(revision)
        const headers = { ...bearer(publicKey), "mcp-session-id": id, "mcp-protocol-version": revision }
        const batch = yield* post(lists(40), headers)
        expect(batch.status).toBe(400)
        expect(batch.text.length).toBeLessThan(200)
        expect(batch.body).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringMatching(/^Invalid Request: .*batch/) }, id: null })
        expect(remaining(batch)).toBe(left - 1)
        // a batch of one is a batch too
        expect((yield* post(lists(1), headers)).status).toBe(400)
        const single = yield* post(lists(1)[0], headers)
        expect(single.status, single.text).toBe(200)
        expect(single.body.result.tools).toHaveLength(ToolNames.length)
        expect(remaining(single)).toBe(left - 3)
      }
      // outside a session, an initialize in a batch
      const initializing = yield* post([initialize("2025-03-26")], bearer(publicKey))
      expect(initializing.status).toBe(400)
      expect(initializing.body.error.code).toBe(-32600)
      expect(initializing.headers["mcp-session-id"]).toBeUndefined()
    }))

  it.scoped("served in a 2025-03-26 session (the revision with batches), each message charged its cost", () =>
    Effect.gen(function*() {
      const { id, left } = yield* session("2025-03-26")
      const headers = { ...bearer(publicKey), "mcp-session-id": id }
      yield* post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)
      const batch = yield* post([
        ...lists(3),
        { jsonrpc: "2.0", id: 20, method: "tools/call", params: { name: "get_agent_activity", arguments: { entityPublicId: atlas.id } } },
        { jsonrpc: "2.0", id: 21, method: "ping" }
      ], headers)
      expect(batch.status, batch.text).toBe(200)
      const answers = batch.body as Array<{ id: number; result: Record<string, unknown> }>
      expect(answers.map((a) => a.id).sort()).toEqual([10, 11, 12, 20, 21])
      expect(answers.find((a) => a.id === 20)!.result["isError"]).not.toBe(true)
      // the notification 1, then 3 lists (1 each), get_agent_activity (its x-rate-cost, 2) and ping (1)
      expect(remaining(batch)).toBe(left - 1 - 6)
      // an empty batch is an Invalid Request (JSON-RPC 2.0 §6)
      const empty = yield* post([], headers)
      expect(empty.status).toBe(400)
      expect(empty.body.error.code).toBe(-32600)
    }))
})
