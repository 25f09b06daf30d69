/**
 * Agents_ImportAgentSource and Agents_GetAgentImport through the HTTP stack, the import
 * workflow on the durable engine, against a real local HTTP server serving A2A Agent
 * Cards (valid in both revisions, invalid), an ERC-8004 registration file, a 404, a slow
 * answer, a huge body, non-JSON and a redirect to the cloud metadata address; the profile
 * (Agents_GetAgent) showing what was imported; refusals at creation; replay; roles.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { DemoAgentCard, DemoImports } from "../../../demo/agents/imports/seed.js"
import { Erc8004RegistrationType } from "../../../src/agents/imports/Erc8004Registration.js"
import { DemoAgents, DemoRegistries } from "../../../demo/agents/seed.js"
import { testConfig } from "../../support/config.js"
import { TestMcpServer } from "../../support/mcpServer.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { until, waitFor } from "../../support/waitFor.js"

const atlas = DemoAgents[0].id
const beacon = DemoAgents[1].id
const cobalt = DemoAgents[2].id
const importsPath = (agent: string) => `/api/v1/agents/${agent}/imports`

/** A card as an agent publishes it (0.3 shape, with a JWS signature the directory keeps intact). */
const card = {
  ...DemoAgentCard,
  name: "Beacon Monitor",
  provider: { organization: "Beacon Labs", url: "https://beacon.example" },
  skills: [
    { id: "uptime", name: "Uptime checks", description: "Checks endpoints every minute.", tags: ["monitoring"], examples: ["Watch https://x.example"] },
    { id: "chain-watch", name: "Chain watch", description: "Watches addresses.", tags: ["chain"], inputModes: ["application/json"] }
  ],
  signatures: [{ protected: "eyJhbGciOiJFUzI1NiJ9", signature: "c2lnbmF0dXJl", header: { kid: "key-1" } }],
  "x-extension": { kept: true }
}
const cardText = JSON.stringify(card, null, 1)

const cardV1 = {
  name: "Beacon Monitor",
  description: "v1 card",
  version: "2.0.0",
  supportedInterfaces: [
    { url: "https://beacon.example/grpc", protocolBinding: "GRPC", protocolVersion: "1.0", tenant: "" },
    { url: "https://beacon.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" }
  ],
  capabilities: { streaming: false, extensions: [] },
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "status", name: "Status", description: "Answers status questions.", tags: [] }]
}

/** A card breaking several rules: no name, a skill without tags, a provider URL that is not one, no interface. */
const invalidCard = {
  description: "broken",
  version: "1",
  capabilities: {},
  provider: { organization: "X", url: "not a url" },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: "text/plain",
  skills: [{ id: "a", name: "A", description: "d" }]
}

const registration = {
  type: Erc8004RegistrationType,
  name: "Beacon Monitor",
  description: "Uptime and chain monitoring",
  image: "https://beacon.example/logo.png",
  endpoints: [
    { name: "A2A", endpoint: "https://beacon.example/.well-known/agent-card.json", version: "0.3.0" },
    { name: "MCP", endpoint: "https://beacon.example/mcp", version: "2025-06-18", capabilities: {} }
  ],
  registrations: [
    { agentId: 22, agentRegistry: `eip155:8453:${DemoRegistries.erc8004.toLowerCase()}` },
    { agentId: "115792089237316195423570985008687907853269984665640564039457584007913129639935", agentRegistry: "eip155:1:0x8004a6090cd10a7288092483047b097295fb8847" },
    { agentId: 22, agentRegistry: `eip155:8453:${DemoRegistries.erc8004}` }
  ],
  supportedTrust: ["reputation", "crypto-economic"]
}

/** Requests the stub has had, by path. */
const served: Record<string, number> = {}

/** The stub card host on 127.0.0.1. */
const StubHost = Effect.acquireRelease(
  Effect.async<Server>((resume) => {
    const server = createServer((req, res) => {
      const path = req.url ?? ""
      served[path] = (served[path] ?? 0) + 1
      const json = (status: number, body: string) => res.writeHead(status, { "content-type": "application/json" }).end(body)
      if (path === "/.well-known/agent-card.json") return json(200, cardText)
      if (path === "/v1-card.json") return json(200, JSON.stringify(cardV1))
      if (path === "/invalid-card.json") return json(200, JSON.stringify(invalidCard))
      if (path === "/erc8004.json") return json(200, JSON.stringify(registration))
      if (path === "/not-json") return res.writeHead(200, { "content-type": "text/html" }).end("<html>hello</html>")
      if (path === "/slow") return setTimeout(() => res.destroyed || json(200, cardText), 5_000).unref()
      if (path === "/huge") {
        res.writeHead(200, { "content-type": "application/json" })
        res.write(`{"name":"${"x".repeat(200 * 1024)}`)
        return res.end(`"}`)
      }
      if (path === "/to-metadata") return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end()
      json(404, "{}")
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

// the stub listens on 127.0.0.1, reachable only because it is named; waits of 500 ms, bodies of 64 KiB
const server = makeTestServer({
  outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"], timeoutMs: 500, maxBytes: 64 * 1024 }
})

const start = (session: Session, agent: string, body: unknown, idempotencyKey?: string) =>
  call("POST", importsPath(agent), { session, body, ...(idempotencyKey ? { idempotencyKey } : {}) })

/** Polls the import (at most 20 s) until it is SUCCEEDED or FAILED. */
const finished = (session: Session, agent: string, importId: string) =>
  Effect.gen(function*() {
    const read = Effect.tap(call("GET", `${importsPath(agent)}/${importId}`, { session }), (reply) => {
      expect(reply.status, reply.text).toBe(200)
    })
    const reply = yield* waitFor(
      `import ${importId} to finish`,
      until(read, (reply) => reply.body.data.state === "SUCCEEDED" || reply.body.data.state === "FAILED", (reply) => reply.text),
      20_000,
      50
    )
    return reply.body.data
  })

/** Starts an import of Beacon and waits for its end. */
const importBeacon = (session: Session, kind: string, url: string) =>
  Effect.gen(function*() {
    const reply = yield* start(session, beacon, { kind, url })
    expect(reply.status, reply.text).toBe(202)
    return yield* finished(session, beacon, reply.body.data.id)
  })

const profile = (agent: string) => Effect.map(call("GET", `/api/v1/agents/${agent}`), (r) => r.body.data)

layer(server.layer, { excludeTestServices: true })("Agents_ImportAgentSource", (it) => {
  it.scoped("an Agent Card: 202 QUEUED, then SUCCEEDED; the profile shows its skills, interfaces and provider; the card is kept as published; replay", () =>
    Effect.gen(function*() {
      const host = yield* StubHost
      const owner = yield* signIn("owner")
      const before = yield* profile(beacon)
      expect(before).toMatchObject({ provider: null, skills: [], interfaces: [], endpoints: [], identityClaims: [], sources: [] })

      const key = randomUUID()
      const body = { kind: "A2A_AGENT_CARD", url: `${host}/.well-known/agent-card.json` }
      const created = yield* start(owner, beacon, body, key)
      expect(created.status, created.text).toBe(202)
      expectMeta(created)
      const record = created.body.data
      expect(Object.keys(record).sort()).toEqual([
        "createdAt", "entityPublicId", "finishedAt", "id", "kind", "reasons", "result", "startedAt", "state", "updatedAt", "url"
      ])
      expect(record).toMatchObject({
        entityPublicId: beacon, kind: "A2A_AGENT_CARD", url: body.url, state: "QUEUED", reasons: [], result: null,
        createdAt: TestEpoch.toISOString(), updatedAt: TestEpoch.toISOString(), startedAt: null, finishedAt: null
      })

      const done = yield* finished(owner, beacon, record.id)
      expect(done).toMatchObject({
        state: "SUCCEEDED",
        reasons: [],
        result: { name: "Beacon Monitor", skills: 2, interfaces: 2, endpoints: 0, identityClaims: 0, signatures: 1, tools: 0 },
        startedAt: TestEpoch.toISOString(),
        finishedAt: TestEpoch.toISOString()
      })
      // the replay answers the first response and starts nothing more
      const replay = yield* start(owner, beacon, body, key)
      expect(replay.status).toBe(202)
      expect(replay.body.data).toEqual(record)
      yield* Effect.sleep("200 millis")
      expect(served["/.well-known/agent-card.json"]).toBe(1)

      const after = yield* profile(beacon)
      expect(after.provider).toEqual({ organization: "Beacon Labs", url: "https://beacon.example" })
      expect(after.skills).toEqual([
        {
          id: "uptime", name: "Uptime checks", description: "Checks endpoints every minute.", tags: ["monitoring"],
          examples: ["Watch https://x.example"], inputModes: ["text/plain"], outputModes: ["text/plain", "application/json"]
        },
        {
          id: "chain-watch", name: "Chain watch", description: "Watches addresses.", tags: ["chain"], examples: [],
          inputModes: ["application/json"], outputModes: ["text/plain", "application/json"]
        }
      ])
      expect(after.interfaces).toEqual([
        { url: "https://atlas-research.example/a2a/v1", protocolBinding: "JSONRPC", protocolVersion: "0.3.0" },
        { url: "https://atlas-research.example/a2a/rest", protocolBinding: "HTTP+JSON", protocolVersion: "0.3.0" }
      ])
      expect(after.sources).toEqual([{ kind: "A2A_AGENT_CARD", url: body.url, importId: record.id, importedAt: TestEpoch.toISOString() }])
      // the existing profile fields are unchanged
      for (const field of ["entityId", "canonicalSlug", "name", "locators", "trust", "offers"]) expect(after[field]).toEqual(before[field])

      const sql = yield* SqlClient.SqlClient
      const [stored] = yield* sql<{ cardText: string; signatures: unknown }>`
        SELECT card_text AS "cardText", card -> 'signatures' AS signatures FROM agent_a2a_cards WHERE agent_id = ${beacon}`
      expect(stored!.cardText).toBe(cardText)
      expect(stored!.signatures).toEqual(card.signatures)

      // an A2A 1.0 card replaces the skills and interfaces
      const v1 = yield* importBeacon(owner, "A2A_AGENT_CARD", `${host}/v1-card.json`)
      expect(v1).toMatchObject({ state: "SUCCEEDED", result: { skills: 1, interfaces: 2, signatures: 0 } })
      const latest = yield* profile(beacon)
      expect(latest.provider).toBeNull()
      expect(latest.skills.map((s: { id: string }) => s.id)).toEqual(["status"])
      expect(latest.interfaces).toEqual([
        { url: "https://beacon.example/grpc", protocolBinding: "GRPC", protocolVersion: "1.0" },
        { url: "https://beacon.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" }
      ])
      expect(latest.sources).toEqual([{ kind: "A2A_AGENT_CARD", url: `${host}/v1-card.json`, importId: v1.id, importedAt: TestEpoch.toISOString() }])
    }))

  it.scoped("a card that breaks the A2A schema FAILS with each rule and its JSON pointer; the profile keeps what it had", () =>
    Effect.gen(function*() {
      const host = yield* StubHost
      const member = yield* signIn("member") // EDITOR
      const before = yield* profile(beacon)
      const done = yield* importBeacon(member, "A2A_AGENT_CARD", `${host}/invalid-card.json`)
      expect(done.state).toBe("FAILED")
      expect(done.result).toBeNull()
      expect(done.finishedAt).toBe(TestEpoch.toISOString())
      const byPointer = Object.fromEntries(done.reasons.map((r: { pointer: string; detail: string; code: string }) => {
        expect(r.code).toBe("schema")
        expect(r.detail).toMatch(/^A2A Agent Card: /)
        expect(r.detail).not.toMatch(/not a url|actual/)
        return [r.pointer, r.detail]
      }))
      expect(Object.keys(byPointer).sort()).toEqual(["/defaultOutputModes", "/name", "/provider/url", "/skills/0/tags"])
      expect(byPointer["/name"]).toBe("A2A Agent Card: this member is required")
      expect(byPointer["/provider/url"]).toBe("A2A Agent Card: provider.url must be an absolute URL")
      expect(byPointer["/defaultOutputModes"]).toBe("A2A Agent Card: defaultOutputModes must be an array of strings")
      expect(byPointer["/skills/0/tags"]).toBe("A2A Agent Card: this member is required")
      expect(yield* profile(beacon)).toEqual(before)
    }))

  it.scoped("an ERC-8004 registration file: endpoints stored, registrations as UNPROVEN identity claims (CAIP-2, EIP-55, decimal)", () =>
    Effect.gen(function*() {
      const host = yield* StubHost
      const owner = yield* signIn("owner")
      const done = yield* importBeacon(owner, "ERC8004_REGISTRATION", `${host}/erc8004.json`)
      expect(done).toMatchObject({
        state: "SUCCEEDED",
        result: { name: "Beacon Monitor", skills: 0, interfaces: 0, endpoints: 2, identityClaims: 2, signatures: 0, tools: 0 }
      })
      const p = yield* profile(beacon)
      expect(p.endpoints).toEqual([
        { name: "A2A", endpoint: "https://beacon.example/.well-known/agent-card.json", version: "0.3.0" },
        { name: "MCP", endpoint: "https://beacon.example/mcp", version: "2025-06-18" }
      ])
      expect(p.identityClaims.map(({ publicId: _, ...c }: { publicId: string }) => c)).toEqual([
        {
          networkFamily: "EVM", locatorKind: "REGISTRY_TOKEN", network: "eip155:1", registry: DemoRegistries.erc8004,
          nativeId: "115792089237316195423570985008687907853269984665640564039457584007913129639935", proofState: "UNPROVEN"
        },
        { networkFamily: "EVM", locatorKind: "REGISTRY_TOKEN", network: "eip155:8453", registry: DemoRegistries.erc8004, nativeId: "22", proofState: "UNPROVEN" }
      ])
      // a claim is not an identity: the registry-bound locators are unchanged
      expect(p.locators.every((l: { nativeId: string }) => l.nativeId !== "22")).toBe(true)
      expect(p.sources.map((s: { kind: string }) => s.kind)).toContain("ERC8004_REGISTRATION")
      // importing the same file again keeps the claims (same ids)
      const again = yield* importBeacon(owner, "ERC8004_REGISTRATION", `${host}/erc8004.json`)
      expect(again.state).toBe("SUCCEEDED")
      expect((yield* profile(beacon)).identityClaims).toEqual(p.identityClaims)
    }))

  it.scoped("FAILED with the reason, never a hang: 404, not JSON, slow (timeout), huge (size cap), a redirect to the metadata address, a URL that is not an MCP server", () =>
    Effect.gen(function*() {
      const host = yield* StubHost
      const owner = yield* signIn("owner")
      const reasonOf = (kind: string, path: string) =>
        Effect.map(importBeacon(owner, kind, `${host}${path}`), (d) => {
          expect(d.state).toBe("FAILED")
          expect(d.reasons).toHaveLength(1)
          expect(d.reasons[0].pointer).toBeNull()
          return d.reasons[0]
        })
      expect(yield* reasonOf("A2A_AGENT_CARD", "/missing")).toEqual({ code: "http-404", detail: "the server answered HTTP 404", pointer: null })
      expect((yield* reasonOf("ERC8004_REGISTRATION", "/not-json")).code).toBe("not-json")
      const started = Date.now()
      expect((yield* reasonOf("A2A_AGENT_CARD", "/slow")).code).toBe("timeout")
      expect(Date.now() - started).toBeLessThan(4_500) // gave up at the outbound bounds, not when the server answered
      expect((yield* reasonOf("A2A_AGENT_CARD", "/huge")).code).toBe("response-too-large")
      const refused = yield* reasonOf("A2A_AGENT_CARD", "/to-metadata")
      expect(refused.code).toBe("target-refused")
      expect(refused.detail).toMatch(/link-local/)
      // the card host is no MCP server (404 to initialize, then to the SSE fallback's GET): the import fails, no connection is added
      expect(yield* reasonOf("MCP_SERVER", "/mcp")).toEqual({
        code: "http-404", detail: "the URL did not answer as an MCP server (initialize and its lists)", pointer: null
      })
      const sql = yield* SqlClient.SqlClient
      expect(yield* sql`SELECT 1 FROM mcp_connections WHERE server_url = ${`${host}/mcp`}`).toEqual([])
    }))

  it.scoped("an MCP server becomes the agent's MCP connection with its catalog; an OAuth-protected one is added AUTH_REQUIRED", () =>
    Effect.gen(function*() {
      const mcp = yield* TestMcpServer()
      const owner = yield* signIn("owner")
      const done = yield* importBeacon(owner, "MCP_SERVER", `${mcp.origin}/mcp`)
      expect(done).toMatchObject({ state: "SUCCEEDED", reasons: [], result: { name: "test-mcp", tools: 5, skills: 0 } })
      // the connection's own refresh stores the live catalog (bounded wait)
      const connections = `/api/v1/agents/${beacon}/mcp/connections`
      const readConnection = Effect.map(call("GET", connections, { session: owner }), (list) => {
        expect(list.status, list.text).toBe(200)
        return list.body.data.find((c: { serverUrl: string }) => c.serverUrl === `${mcp.origin}/mcp`) as
          | { id: string; state: string; serverUrl: string }
          | undefined
      })
      const connection = yield* waitFor(
        "the connection CONNECTED",
        until(readConnection, (connection) => connection?.state === "CONNECTED"),
        20_000,
        50
      )
      expect(connection?.state).toBe("CONNECTED")
      const catalog = yield* call("GET", `${connections}/${connection!.id}/catalog`, { session: owner })
      expect(catalog.status, catalog.text).toBe(200)
      expect(catalog.body.data.tools.map((t: { name: string }) => t.name)).toEqual(["alpha", "bravo", "charlie", "delta", "echo"])
      // importing the same server again reuses the connection
      expect((yield* importBeacon(owner, "MCP_SERVER", `${mcp.origin}/mcp`)).state).toBe("SUCCEEDED")
      const sql = yield* SqlClient.SqlClient
      expect(yield* sql`SELECT 1 FROM mcp_connections WHERE server_url = ${`${mcp.origin}/mcp`}`).toHaveLength(1)

      const protectedImport = yield* importBeacon(owner, "MCP_SERVER", `${mcp.origin}/protected`)
      expect(protectedImport).toMatchObject({ state: "SUCCEEDED", result: { name: null, tools: 0 } })
    }))

  it.scoped("refused at creation: the metadata address and a loopback host not in OUTBOUND_ALLOWED_HOSTS, in IPv4 and IPv6 forms (400, /url); bad bodies", () =>
    Effect.gen(function*() {
      const host = yield* StubHost
      const owner = yield* signIn("owner")
      const port = new URL(host).port
      for (
        const url of [
          "http://169.254.169.254/latest/meta-data/", `http://127.0.0.2:${port}/card.json`, `http://[::1]:${port}/`, "http://10.0.0.1/",
          // IPv4-compatible IPv6 forms of loopback and of the metadata address
          `http://[::127.0.0.1]:${port}/card.json`, "http://[::a9fe:a9fe]/latest/meta-data/"
        ]
      ) {
        const reply = yield* start(owner, beacon, { kind: "A2A_AGENT_CARD", url })
        expectProblem(reply, 400, "outbound-target-refused")
        expect(reply.body.errors).toEqual([{ in: "body", pointer: "/url", detail: expect.stringMatching(/loopback/) }])
        expect(reply.text).not.toContain(url.replace(/\/$/, ""))
      }
      expectProblem(yield* start(owner, beacon, { kind: "A2A_AGENT_CARD", url: "ftp://example.com/card" }), 400, "invalid-request")
      expectProblem(yield* start(owner, beacon, { kind: "OPENAPI", url: "https://example.com/card" }), 400, "invalid-request")
      expectProblem(yield* start(owner, beacon, { kind: "A2A_AGENT_CARD", url: "https://example.com/card", extra: 1 }), 400, "invalid-request")
      expectProblem(yield* start(owner, beacon, { kind: "A2A_AGENT_CARD" }), 400, "invalid-request")
      // nothing was recorded
      const sql = yield* SqlClient.SqlClient
      const [count] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM agent_imports WHERE url LIKE '%169.254%' OR url LIKE 'ftp%'`
      expect(count!.n).toBe(0)
    }))

  it.effect("roles: VIEWER 403; another workspace's agent 404; no session 401; no CSRF 403; no key 400; reads by members; unknown import 404", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const admin = yield* signIn("admin") // VIEWER in Acme
      const outsider = yield* signIn("outsider")
      const body = { kind: "A2A_AGENT_CARD", url: "https://beacon.example/.well-known/agent-card.json" }
      expectProblem(yield* start(admin, beacon, body), 403, "role-required")
      expectProblem(yield* start(owner, cobalt, body), 404, "agent-not-found")
      expectProblem(yield* start(outsider, beacon, body), 404, "agent-not-found")
      expectProblem(yield* start(owner, randomUUID(), body), 404, "agent-not-found")
      expectProblem(yield* call("POST", importsPath(beacon), { body }), 401)
      expectProblem(yield* call("POST", importsPath(beacon), { session: owner, body, csrf: null }), 403)
      expectProblem(yield* call("POST", importsPath(beacon), { session: owner, body, idempotencyKey: null }), 400, "idempotency-key-required")
      // the same key with another body
      const key = randomUUID()
      expect((yield* start(owner, beacon, body, key)).status).toBe(202)
      expectProblem(yield* start(owner, beacon, { ...body, url: "https://beacon.example/other.json" }, key), 409)

      // reads: any active member of the agent's workspace
      const demo = `${importsPath(atlas)}/${DemoImports.atlasCard.id}`
      const read = yield* call("GET", demo, { session: admin })
      expect(read.status, read.text).toBe(200)
      expect(read.body.data).toMatchObject({ id: DemoImports.atlasCard.id, entityPublicId: atlas, state: "SUCCEEDED", reasons: [] })
      expectProblem(yield* call("GET", demo, { session: outsider }), 404, "agent-not-found")
      expectProblem(yield* call("GET", demo), 401)
      // an import of another agent, or none
      expectProblem(yield* call("GET", `${importsPath(beacon)}/${DemoImports.atlasCard.id}`, { session: owner }), 404, "agent-import-not-found")
      expectProblem(yield* call("GET", `${importsPath(atlas)}/${randomUUID()}`, { session: owner }), 404, "agent-import-not-found")
      const failed = yield* call("GET", `${importsPath(beacon)}/${DemoImports.beaconFailed.id}`, { session: owner })
      expect(failed.body.data).toMatchObject({ state: "FAILED", reasons: [{ code: "http-404", pointer: null }] })
    }))

  it.effect("the demo profile of Atlas shows its imported card and registration", () =>
    Effect.gen(function*() {
      const p = yield* profile(atlas)
      expect(p.provider).toEqual({ organization: "Acme Agents", url: "https://acme.example" })
      expect(p.skills.map((s: { id: string }) => s.id)).toEqual(["literature-review", "market-scan"])
      expect(p.identityClaims).toEqual([{
        publicId: "019002a1-0000-7000-8000-000000000001", networkFamily: "EVM", locatorKind: "REGISTRY_TOKEN",
        network: "eip155:8453", registry: DemoRegistries.erc8004, nativeId: "1", proofState: "UNPROVEN"
      }])
      expect(p.sources.map((s: { kind: string }) => s.kind)).toEqual(["A2A_AGENT_CARD", "ERC8004_REGISTRATION"])
    }))
})
