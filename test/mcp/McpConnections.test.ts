/**
 * MCP connections that connect through the HTTP stack, against real
 * MCP servers built with `@modelcontextprotocol/sdk` on 127.0.0.1 (test/support/mcpServer.ts):
 * MCP_CreateMcpConnection, MCP_ListMcpConnections, MCP_GetMcpConnection,
 * MCP_RefreshMcpCatalog, MCP_GetMcpCatalog (fetched, paginated, stale) and
 * Runtime_ListRuntimeTools (the catalog's tools as runtime tools).
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { call, type CallOptions, expectMeta, expectProblem, type Session, signIn } from "../support/http.js"
import { testConfig } from "../support/config.js"
import { TestMcpServer } from "../support/mcpServer.js"
import { pause } from "../support/time.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

/** Beacon Monitor: operated by Acme, no runtime configured. */
const agent = DemoRuntimeAgents.unconfigured
const connectionsPath = (a: string = agent) => `/api/v1/agents/${a}/mcp/connections`

const create = (session: Session, body: unknown, options: CallOptions = {}, a?: string) =>
  call("POST", connectionsPath(a), { session, body, ...options })
const getConnection = (session: Session, id: string) => call("GET", `${connectionsPath()}/${id}`, { session })
const getCatalog = (session: Session, id: string) => call("GET", `${connectionsPath()}/${id}/catalog`, { session })
const refresh = (session: Session, id: string, options: CallOptions = {}) =>
  call("POST", `${connectionsPath()}/${id}/catalog/refresh`, { session, body: {}, ...options })
const tools = (session: Session) => call("GET", `/api/v1/agents/${agent}/tools`, { session })

/** SHA-256 of the JSON text with keys sorted at every depth, computed here independently of the server. */
const sortedJson = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(sortedJson).join(",")}]`
    : v !== null && typeof v === "object"
    ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`).join(",")}}`
    : JSON.stringify(v)
const digestOf = (v: unknown) => "sha256:" + createHash("sha256").update(sortedJson(v)).digest("hex")

/** Waits (at most 20 s of real time) until the connection satisfies `done`, and returns it. */
const awaitConnection = (session: Session, id: string, done: (c: any) => boolean) =>
  Effect.gen(function*() {
    const read = Effect.tap(getConnection(session, id), (reply) => {
      expect(reply.status, reply.text).toBe(200)
    })
    const reply = yield* waitFor(`connection ${id} done`, until(read, (reply) => done(reply.body.data), (reply) => reply.text), 20_000, 50)
    return reply.body.data
  })

// the MCP servers listen on 127.0.0.1, which the outbound client reaches only when named
const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } })

layer(server.layer, { excludeTestServices: true })("MCP connections against a live MCP server", (it) => {
  it.scoped("create → 201 PENDING → CONNECTED; the catalog holds every page; tools become runtime tools; replay; 409", () =>
    Effect.gen(function*() {
      const mcp = yield* TestMcpServer()
      const member = yield* signIn("member")
      // no runtime configured and no MCP tools yet: 422
      expectProblem(yield* tools(member), 422, "configuration-missing")

      const key = randomUUID()
      const body = { name: "Test tools", serverUrl: `${mcp.origin}/mcp`, transport: "STREAMABLE_HTTP" }
      const created = yield* create(member, body, { idempotencyKey: key })
      expect(created.status, created.text).toBe(201)
      expectMeta(created)
      const c = created.body.data
      expect(c).toEqual({
        id: c.id, entityPublicId: agent, name: "Test tools", serverUrl: `${mcp.origin}/mcp`, transport: "STREAMABLE_HTTP",
        state: "PENDING", lastFailure: null, lastAttemptedAt: null, catalog: null, version: 1,
        createdAt: TestEpoch.toISOString(), updatedAt: TestEpoch.toISOString()
      })
      // replay: the same 201, no second connection, no second fetch
      const replay = yield* create(member, body, { idempotencyKey: key })
      expect(replay.status).toBe(201)
      expect(replay.body.data).toEqual(c)
      expectProblem(yield* create(member, body), 409, "connection-exists")

      const connected = yield* awaitConnection(member, c.id, (x) => x.state !== "PENDING")
      expect(connected).toMatchObject({ state: "CONNECTED", lastFailure: null, version: 2 })
      expect(connected.catalog).toMatchObject({
        protocolVersion: "2025-11-25", toolCount: 5, resourceCount: 2, resourceTemplateCount: 1, promptCount: 1,
        observedAt: TestEpoch.toISOString(), expiresAt: new Date(TestEpoch.getTime() + 3600_000).toISOString(), stale: false
      })
      expect(mcp.served["tools/list"]).toBe(3) // five tools, two a page: every page was read, once

      const catalog = (yield* getCatalog(member, c.id)).body.data
      expect(catalog).toMatchObject({
        connectionPublicId: c.id,
        protocolVersion: "2025-11-25",
        serverIdentity: { name: "test-mcp", version: "3.1.4", title: "Test MCP" },
        capabilities: { tools: { listChanged: false }, resources: {}, prompts: {} },
        resources: mcp.offer.resources,
        resourceTemplates: mcp.offer.resourceTemplates,
        prompts: mcp.offer.prompts,
        cacheMetadata: {
          transport: "STREAMABLE_HTTP", ttlSeconds: 3600, pages: { tools: 3, resources: 1, resourceTemplates: 1, prompts: 1 },
          ageSeconds: 0, stale: false, refreshing: false
        },
        observedAt: TestEpoch.toISOString()
      })
      expect(catalog.tools).toEqual(mcp.offer.tools)
      expect(catalog.digest).toBe(digestOf({
        protocolVersion: catalog.protocolVersion, serverIdentity: catalog.serverIdentity, capabilities: catalog.capabilities,
        tools: catalog.tools, resources: catalog.resources, resourceTemplates: catalog.resourceTemplates, prompts: catalog.prompts
      }))
      expect(connected.catalog.digest).toBe(catalog.digest)

      const runtime = yield* tools(member)
      expect(runtime.status, runtime.text).toBe(200)
      expect(runtime.body.data.map((t: any) => [t.stableName, t.version, t.available])).toEqual([
        ["test-tools.alpha", 1, true], ["test-tools.bravo", 1, true], ["test-tools.charlie", 1, true],
        ["test-tools.delta", 1, true], ["test-tools.echo", 1, true]
      ])
      const alpha = runtime.body.data[0]
      expect(alpha).toMatchObject({
        description: "The alpha tool", inputSchema: mcp.offer.tools[0]!["inputSchema"], outputSchema: null,
        riskClass: "LOW", executorKind: "MCP", executionClass: "READ", sourceKind: "MCP_SERVER", sourceReference: c.id,
        implementationVersion: "3.1.4", unavailableAt: null, state: "ACTIVE", grantState: null,
        definitionDigest: digestOf(mcp.offer.tools[0]), remoteDefinition: mcp.offer.tools[0]
      })
      expect(runtime.body.data[1]).toMatchObject({ riskClass: "HIGH", executionClass: "SIDE_EFFECT" })

      // list and get
      const list = yield* call("GET", connectionsPath(), { session: member })
      expect(list.status, list.text).toBe(200)
      expect(list.body.data.map((x: any) => x.id)).toEqual([c.id])
      expectProblem(yield* getConnection(member, randomUUID()), 404, "connection-not-found")
    }))

  it.scoped("refresh: the same offer keeps its digest; a changed tool list moves the digest and the runtime tools", () =>
    Effect.gen(function*() {
      const mcp = yield* TestMcpServer({ pageSize: 3 })
      const owner = yield* signIn("owner")
      const c = (yield* create(owner, { serverUrl: `${mcp.origin}/mcp` })).body.data
      expect(c).toMatchObject({ name: mcp.origin.replace("http://", ""), transport: "AUTO" })
      const first = yield* awaitConnection(owner, c.id, (x) => x.state === "CONNECTED")

      // a refresh of the same offer: same digest, a new observation
      server.clock.advance(60_000)
      const key = randomUUID()
      const asked = yield* refresh(owner, c.id, { idempotencyKey: key })
      expect(asked.status, asked.text).toBe(202)
      expect(asked.body.data).toMatchObject({ connection: { id: c.id, state: "CONNECTED" }, requestedAt: new Date(TestEpoch.getTime() + 60_000).toISOString() })
      const again = yield* awaitConnection(owner, c.id, (x) => x.catalog.observedAt !== first.catalog.observedAt)
      expect(again.catalog.digest).toBe(first.catalog.digest)
      expect(again.version).toBe(first.version) // still CONNECTED: the resource did not change
      // the replayed refresh starts no second fetch
      const listsBefore = mcp.served["tools/list"]
      const replay = yield* refresh(owner, c.id, { idempotencyKey: key })
      expect(replay.status).toBe(202)
      expect(replay.body.data).toEqual(asked.body.data)

      // the server changes its offer: bravo gone, charlie's definition changed, foxtrot new
      mcp.offer.tools.splice(1, 1)
      mcp.offer.tools[1] = { ...mcp.offer.tools[1], description: "The charlie tool, v2" }
      mcp.offer.tools.push({ name: "foxtrot", inputSchema: { type: "object" }, annotations: { readOnlyHint: false, destructiveHint: false } })
      yield* pause(300)
      expect(mcp.served["tools/list"]).toBe(listsBefore)
      server.clock.advance(60_000)
      expect((yield* refresh(owner, c.id)).status).toBe(202)
      const changed = yield* awaitConnection(owner, c.id, (x) => x.catalog.observedAt !== again.catalog.observedAt)
      expect(changed.catalog.digest).not.toBe(first.catalog.digest)
      expect(changed.catalog.toolCount).toBe(5)
      const catalog = (yield* getCatalog(owner, c.id)).body.data
      expect(catalog.tools.map((t: any) => t.name)).toEqual(["alpha", "charlie", "delta", "echo", "foxtrot"])

      const runtime = (yield* tools(owner)).body.data.filter((t: any) => t.sourceReference === c.id)
      const at = new Date(TestEpoch.getTime() + 120_000).toISOString()
      const prefix = mcp.origin.replace("http://", "").replace(/[^a-z0-9]+/g, "-")
      expect(runtime.map((t: any) => [t.stableName.slice(prefix.length + 1), t.version, t.available, t.state, t.unavailableAt])).toEqual([
        ["alpha", 1, true, "ACTIVE", null],
        ["bravo", 1, false, "REMOVED", at],
        ["charlie", 1, false, "SUPERSEDED", at],
        ["charlie", 2, true, "ACTIVE", null],
        ["delta", 1, true, "ACTIVE", null],
        ["echo", 1, true, "ACTIVE", null],
        ["foxtrot", 1, true, "ACTIVE", null]
      ])
      const charlie2 = runtime.find((t: any) => t.stableName.endsWith(".charlie") && t.version === 2)
      expect(charlie2).toMatchObject({ description: "The charlie tool, v2", definitionDigest: digestOf(mcp.offer.tools[1]) })
      expect(runtime.find((t: any) => t.stableName.endsWith(".foxtrot"))).toMatchObject({ riskClass: "MEDIUM", executionClass: "SIDE_EFFECT" })

      // bravo comes back unchanged: the same version is available again
      mcp.offer.tools.push({
        name: "bravo", description: "The bravo tool",
        inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, annotations: { readOnlyHint: false }
      })
      expect((yield* refresh(owner, c.id)).status).toBe(202)
      yield* awaitConnection(owner, c.id, (x) => x.catalog.toolCount === 6)
      const bravo = (yield* tools(owner)).body.data.filter((t: any) => t.sourceReference === c.id && t.stableName.endsWith(".bravo"))
      expect(bravo.map((t: any) => [t.version, t.available, t.unavailableAt])).toEqual([[1, true, null]])
    }))

  it.scoped("a catalog past expiresAt is answered stale and refreshed; the cron refreshes catalogs nearing expiry", () =>
    Effect.gen(function*() {
      const mcp = yield* TestMcpServer()
      const owner = yield* signIn("owner")
      const c = (yield* create(owner, { serverUrl: `${mcp.origin}/mcp`, name: "Expiring" })).body.data
      const first = yield* awaitConnection(owner, c.id, (x) => x.state === "CONNECTED")
      const sql = yield* SqlClient.SqlClient
      // 30 s later, the stored catalog is made to have expired a second ago (without waiting an hour for it)
      server.clock.advance(30_000)
      const expired = new Date(server.clock.unsafeCurrentTimeMillis() - 1000)
      yield* sql`UPDATE mcp_catalogs SET expires_at = ${expired} WHERE connection_id = ${c.id}`
      const stale = yield* getCatalog(owner, c.id)
      expect(stale.status, stale.text).toBe(200)
      expect(stale.body.data.cacheMetadata).toMatchObject({ stale: true, refreshing: true, ageSeconds: 30 })
      expect(stale.body.data.expiresAt).toBe(expired.toISOString())
      // the read started one fetch; once it ends the catalog is fresh again
      const refreshed = yield* awaitConnection(owner, c.id, (x) => x.catalog.observedAt !== first.catalog.observedAt)
      expect(refreshed.catalog).toMatchObject({ stale: false, digest: first.catalog.digest })
      expect(refreshed.catalog.observedAt).toBe(new Date(server.clock.unsafeCurrentTimeMillis()).toISOString())
      const fresh = (yield* getCatalog(owner, c.id)).body.data
      expect(fresh.cacheMetadata).toMatchObject({ stale: false, refreshing: false, ageSeconds: 0 })

      // an hour later the cron (every 5 minutes) has refreshed it ahead of expiry
      const observed = refreshed.catalog.observedAt
      server.clock.advance(3600_000 - 5 * 60_000)
      const byCron = yield* awaitConnection(owner, c.id, (x) => x.catalog.observedAt !== observed)
      expect(byCron.catalog.stale).toBe(false)
    }))

  it.scoped("AUTO falls back to an SSE-only server; a 401 makes AUTH_REQUIRED; an unreachable server UNREACHABLE", () =>
    Effect.gen(function*() {
      const mcp = yield* TestMcpServer()
      const owner = yield* signIn("owner")
      const legacy = (yield* create(owner, { serverUrl: `${mcp.origin}/legacy`, transport: "AUTO" })).body.data
      const viaSse = yield* awaitConnection(owner, legacy.id, (x) => x.state !== "PENDING")
      expect(viaSse).toMatchObject({ state: "CONNECTED", catalog: { toolCount: 5 } })
      expect((yield* getCatalog(owner, legacy.id)).body.data.cacheMetadata).toMatchObject({ transport: "SSE" })

      const streamableOnly = (yield* create(owner, { serverUrl: `${mcp.origin}/legacy?x=1`, transport: "STREAMABLE_HTTP" })).body.data
      expect(yield* awaitConnection(owner, streamableOnly.id, (x) => x.state !== "PENDING"))
        .toMatchObject({ state: "UNREACHABLE", lastFailure: "http-405", catalog: null })

      const protectedOne = (yield* create(owner, { serverUrl: `${mcp.origin}/protected` })).body.data
      const auth = yield* awaitConnection(owner, protectedOne.id, (x) => x.state !== "PENDING")
      expect(auth).toMatchObject({ state: "AUTH_REQUIRED", lastFailure: "auth-required", catalog: null, version: 2 })
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ url: string }>`SELECT oauth_resource_metadata_url AS url FROM mcp_connections WHERE id = ${protectedOne.id}`
      expect(row!.url).toBe(`${mcp.origin}/.well-known/oauth-protected-resource/protected`)
      expectProblem(yield* getCatalog(owner, protectedOne.id), 422, "configuration-missing")

      // a port nothing listens on
      const closed = (yield* create(owner, { serverUrl: "http://127.0.0.1:9/mcp", transport: "STREAMABLE_HTTP" })).body.data
      expect(yield* awaitConnection(owner, closed.id, (x) => x.state !== "PENDING"))
        .toMatchObject({ state: "UNREACHABLE", lastFailure: "network-error" })
    }))

  it.scoped("a redirect off the server's origin is target-refused on every transport; an SSE server not reachable is network-error", () =>
    Effect.gen(function*() {
      const mcp = yield* TestMcpServer()
      const owner = yield* signIn("owner")
      for (const transport of ["SSE", "STREAMABLE_HTTP", "AUTO"]) {
        for (const to of ["http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:9/mcp"]) {
          const serverUrl = `${mcp.origin}/redirect?to=${encodeURIComponent(to)}&transport=${transport}`
          const c = (yield* create(owner, { serverUrl, transport })).body.data
          expect(yield* awaitConnection(owner, c.id, (x) => x.state !== "PENDING"), `${transport} to ${to}`)
            .toMatchObject({ state: "UNREACHABLE", lastFailure: "target-refused", catalog: null })
        }
      }
      const closed = (yield* create(owner, { serverUrl: "http://127.0.0.1:9/sse", transport: "SSE" })).body.data
      expect(yield* awaitConnection(owner, closed.id, (x) => x.state !== "PENDING"))
        .toMatchObject({ state: "UNREACHABLE", lastFailure: "network-error" })
    }))

  it.effect("400 for a bad body or a metadata address; 403 for a VIEWER; 404 for another workspace's agent", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const refused = yield* create(owner, { serverUrl: "http://169.254.169.254/latest/meta-data/" })
      expectProblem(refused, 400, "outbound-target-refused")
      expect(refused.body.errors[0]).toMatchObject({ in: "body", pointer: "/serverUrl" })
      expect(refused.text).not.toContain("169.254")
      const badUrl = yield* create(owner, { serverUrl: "ftp://example.com/mcp" })
      expectProblem(badUrl, 400, "invalid-request")
      expect(badUrl.body.errors[0]).toMatchObject({ pointer: "/serverUrl" })
      const badTransport = yield* create(owner, { serverUrl: "https://mcp.example.com/mcp", transport: "WEBSOCKET" })
      expectProblem(badTransport, 400, "invalid-request")
      expect(badTransport.body.errors[0]).toMatchObject({ pointer: "/transport" })
      expectProblem(yield* create(owner, { serverUrl: "https://mcp.example.com/mcp", extra: 1 }), 400, "invalid-request")
      expectProblem(yield* create(yield* signIn("admin"), { serverUrl: "https://mcp.example.com/mcp" }), 403, "role-required")
      expectProblem(yield* create(owner, { serverUrl: "https://mcp.example.com/mcp" }, {}, DemoRuntimeAgents.foreign), 404, "agent-not-found")
      expectProblem(yield* call("POST", connectionsPath(), { body: { serverUrl: "https://mcp.example.com/mcp" } }), 401, "unauthenticated")
    }))
})

// the default configuration: no local host is allowed
const closedServer = makeTestServer()

layer(closedServer.layer, { excludeTestServices: true })("MCP_CreateMcpConnection without OUTBOUND_ALLOWED_HOSTS", (it) => {
  it.effect("400 outbound-target-refused for 127.0.0.1 and the metadata address, in IPv4 and IPv6 forms", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      for (
        const url of [
          "http://127.0.0.1:8080/mcp", "http://169.254.169.254/", "http://[::ffff:127.0.0.1]/mcp", "http://[::127.0.0.1]:8080/mcp",
          "http://[::a9fe:a9fe]/", "http://[64:ff9b::a9fe:a9fe]/"
        ]
      ) {
        const reply = yield* create(owner, { serverUrl: url })
        expectProblem(reply, 400, "outbound-target-refused")
        expect(reply.body.errors[0]).toMatchObject({ pointer: "/serverUrl" })
      }
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM mcp_connections WHERE agent_id = ${agent}`
      expect(row!.n).toBe(0)
    }))
})
