/**
 * MCP_GetMcpCatalog and MCP_BeginMcpOAuth (spec §2.16, §4.4, §8) through the HTTP
 * stack, on the demo data.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { DemoMcpConnections, demoMcpCatalog, DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"

const server = makeTestServer()
type ConnectionName = keyof typeof DemoMcpConnections

const connectionPath = (connection: ConnectionName | string, suffix: string, agent: string = DemoRuntimeAgents.configured) =>
  `/api/v1/agents/${agent}/mcp/connections/${
    connection in DemoMcpConnections ? DemoMcpConnections[connection as ConnectionName].id : connection
  }/${suffix}`

/** SHA-256 of the JSON text with keys sorted at every depth, computed here independently of the server. */
const sortedJson = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(sortedJson).join(",")}]`
    : v !== null && typeof v === "object"
    ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`).join(",")}}`
    : JSON.stringify(v)
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")
const contentDigest = (c: Record<string, unknown>) =>
  "sha256:" + sha256(sortedJson({
    protocolVersion: c["protocolVersion"],
    serverIdentity: c["serverIdentity"],
    capabilities: c["capabilities"],
    tools: c["tools"],
    resources: c["resources"],
    resourceTemplates: c["resourceTemplates"],
    prompts: c["prompts"]
  }))

const getCatalog = (connection: ConnectionName | string, options: CallOptions = {}, agent?: string) =>
  call("GET", connectionPath(connection, "catalog", agent), options)

const beginOAuth = (connection: ConnectionName | string, body: unknown, options: CallOptions = {}, agent?: string) =>
  Effect.gen(function*() {
    const session = options.session ?? (yield* signIn("owner"))
    return yield* call("POST", connectionPath(connection, "oauth", agent), { body, ...options, session })
  })

const flows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ state: string; codeVerifier: string; scopes: Array<string>; expiresAt: string; connectionId: string; accountId: string }>`
    SELECT state, code_verifier AS "codeVerifier", scopes, api_ts(expires_at) AS "expiresAt",
           connection_id AS "connectionId", account_id AS "accountId"
    FROM mcp_oauth_flows ORDER BY created_at, id`
}).pipe(Effect.orDie)

layer(server.layer)("MCP_GetMcpCatalog", (it) => {
  it.effect("200: the last observed catalog (§2.16) with digest = SHA-256 of its canonical content", () =>
    Effect.gen(function*() {
      const reply = yield* getCatalog("docs", { session: yield* signIn("member") })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("private, no-cache")
      expectMeta(reply)
      const demo = demoMcpCatalog(DemoMcpConnections.docs)
      expect(reply.body.data).toEqual({
        connectionPublicId: DemoMcpConnections.docs.id,
        protocolVersion: demo.protocolVersion,
        serverIdentity: demo.serverIdentity,
        capabilities: demo.capabilities,
        tools: demo.tools,
        resources: demo.resources,
        resourceTemplates: demo.resourceTemplates,
        prompts: demo.prompts,
        // the demo catalog expired long before the test clock's now: answered stale, its refresh started
        cacheMetadata: {
          ...demo.cacheMetadata,
          ageSeconds: (TestEpoch.getTime() - demo.observedAt.getTime()) / 1000,
          stale: true,
          refreshing: true
        },
        digest: contentDigest(demo),
        observedAt: demo.observedAt.toISOString(),
        expiresAt: demo.expiresAt.toISOString()
      })
      expect(reply.body.data.digest).toMatch(/^sha256:[0-9a-f]{64}$/)
    }))

  it.effect("the digest changes with the offered content, not with a new observation time", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const session = yield* signIn("member")
      const before = (yield* getCatalog("local", { session })).body.data.digest
      yield* sql`UPDATE mcp_catalogs SET observed_at = observed_at + interval '1 day', cache_metadata = '{"etag":"W/\\"2\\""}'
                 WHERE connection_id = ${DemoMcpConnections.local.id}`.pipe(Effect.orDie)
      const reobserved = (yield* getCatalog("local", { session })).body.data
      expect(reobserved.digest).toBe(before)
      // key order in storage does not matter (canonical JSON); the content does
      yield* sql`UPDATE mcp_catalogs SET tools = '[{"name":"search","inputSchema":{"type":"object"}},{"name":"read"}]'
                 WHERE connection_id = ${DemoMcpConnections.local.id}`.pipe(Effect.orDie)
      const changed = (yield* getCatalog("local", { session })).body.data
      expect(changed.digest).not.toBe(before)
      expect(changed.digest).toBe(contentDigest(changed))
    }))

  it.effect("404 agent-not-found / connection-not-found; 422 configuration-missing when never observed", () =>
    Effect.gen(function*() {
      const session = yield* signIn("member")
      expectProblem(yield* getCatalog("foreign", { session }, DemoRuntimeAgents.foreign), 404, "agent-not-found")
      expectProblem(yield* getCatalog("docs", { session }, DemoRuntimeAgents.unoperated), 404, "agent-not-found")
      // another agent's connection through a visible agent
      expectProblem(yield* getCatalog("foreign", { session }), 404, "connection-not-found")
      expectProblem(yield* getCatalog(randomUUID(), { session }), 404, "connection-not-found")
      expectProblem(yield* getCatalog("crm", { session }), 422, "configuration-missing")
    }))

  it.effect("400 for a connection id that is not a uuid; 401 without a session", () =>
    Effect.gen(function*() {
      const bad = yield* getCatalog("x", { session: yield* signIn("member") })
      expectProblem(bad, 400, "invalid-request")
      expect(bad.body.errors[0]).toMatchObject({ in: "path", pointer: "/connectionPublicId" })
      expectProblem(yield* getCatalog("docs"), 401, "unauthenticated")
    }))
})

layer(server.layer)("MCP_BeginMcpOAuth", (it) => {
  it.effect("200: a real authorization URL (code flow, PKCE S256); verifier and state kept until expiresAt", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* beginOAuth("crm", { scopes: ["crm.read", "crm.write"] }, { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(Object.keys(reply.body.data).sort()).toEqual(["authorizationUrl", "expiresAt"])
      expect(reply.body.data.expiresAt).toBe(new Date(TestEpoch.getTime() + 10 * 60_000).toISOString())

      const url = new URL(reply.body.data.authorizationUrl)
      const oauth = DemoMcpConnections.crm.oauth
      expect(`${url.origin}${url.pathname}`).toBe(oauth.authorizationEndpoint)
      const params = Object.fromEntries(url.searchParams)
      expect(Object.keys(params).sort()).toEqual([
        "client_id", "code_challenge", "code_challenge_method", "redirect_uri", "resource", "response_type", "scope", "state"
      ])
      expect(params).toMatchObject({
        response_type: "code",
        client_id: oauth.clientId,
        // the seeded connection's client and endpoint are used as they are; the redirect is always ours
        redirect_uri: "https://directory.test/api/v1/mcp/oauth/callback",
        resource: DemoMcpConnections.crm.serverUrl,
        scope: "crm.read crm.write",
        code_challenge_method: "S256"
      })
      expect(params["state"]).toMatch(/^[A-Za-z0-9_-]{43}$/)

      const stored = yield* flows
      expect(stored).toHaveLength(1)
      const flow = stored[0]!
      expect(flow).toMatchObject({
        state: params["state"],
        scopes: ["crm.read", "crm.write"],
        expiresAt: reply.body.data.expiresAt,
        connectionId: DemoMcpConnections.crm.id,
        accountId: owner.accountId
      })
      // RFC 7636 §4.1-4.2: verifier of 43-128 unreserved chars; challenge = BASE64URL(SHA256(verifier))
      expect(flow.codeVerifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/)
      expect(params["code_challenge"]).toBe(createHash("sha256").update(flow.codeVerifier).digest("base64url"))
      expect(reply.text).not.toContain(flow.codeVerifier)
    }))

  it.effect("default: no scopes, no scope parameter; each call a fresh state and verifier; a replay returns the same URL", () =>
    Effect.gen(function*() {
      const session = yield* signIn("member") // EDITOR may connect
      const key = randomUUID()
      const first = yield* beginOAuth("docs", {}, { session, idempotencyKey: key })
      expect(first.status, first.text).toBe(200)
      expect(new URL(first.body.data.authorizationUrl).searchParams.has("scope")).toBe(false)
      const replay = yield* beginOAuth("docs", {}, { session, idempotencyKey: key })
      expect(replay.body.data).toEqual(first.body.data)
      const second = yield* beginOAuth("docs", {}, { session })
      const state = (u: string) => new URL(u).searchParams.get("state")
      expect(state(second.body.data.authorizationUrl)).not.toBe(state(first.body.data.authorizationUrl))
      const docsFlows = (yield* flows).filter((f) => f.connectionId === DemoMcpConnections.docs.id)
      expect(docsFlows).toHaveLength(2)
      expect(new Set(docsFlows.map((f) => f.codeVerifier)).size).toBe(2)
      expectProblem(yield* beginOAuth("docs", { scopes: ["a"] }, { session, idempotencyKey: key }), 409, "idempotency-key-reuse")
    }))

  it.effect("400: more than 50 scopes, an empty, a 201-char or a spaced scope, unknown keys, no Idempotency-Key", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const many = yield* beginOAuth("crm", { scopes: Array.from({ length: 51 }, (_, i) => `s${i}`) }, { session })
      expectProblem(many, 400, "invalid-request")
      expect(many.body.errors[0].pointer).toBe("/scopes")
      const fifty = yield* beginOAuth("crm", { scopes: Array.from({ length: 50 }, (_, i) => `s${i}`) }, { session })
      expect(fifty.status, fifty.text).toBe(200)
      const longest = yield* beginOAuth("crm", { scopes: ["x".repeat(200)] }, { session })
      expect(longest.status, longest.text).toBe(200)
      for (const scope of ["", "x".repeat(201), "read write"]) {
        const reply = yield* beginOAuth("crm", { scopes: ["ok", scope] }, { session })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors[0].pointer).toBe("/scopes/1")
      }
      expectProblem(yield* beginOAuth("crm", { scopes: [], prompt: "consent" }, { session }), 400, "invalid-request")
      expectProblem(yield* beginOAuth("crm", {}, { session, idempotencyKey: null }), 400, "idempotency-key-required")
    }))

  it.effect("403 role-required for a VIEWER; 404; 409 invalid-state (DISABLED); 422 oauth-discovery-failed (no OAuth, server unreachable)", () =>
    Effect.gen(function*() {
      const before = (yield* flows).length
      expectProblem(yield* beginOAuth("crm", {}, { session: yield* signIn("admin") }), 403, "role-required")
      const owner = yield* signIn("owner")
      expectProblem(yield* beginOAuth("foreign", {}, { session: owner }, DemoRuntimeAgents.foreign), 404, "agent-not-found")
      expectProblem(yield* beginOAuth("foreign", {}, { session: owner }), 404, "connection-not-found")
      expectProblem(yield* beginOAuth("disabled", {}, { session: owner }), 409, "invalid-state")
      // no OAuth metadata stored: discovery is tried, and the demo server's name does not resolve
      expectProblem(yield* beginOAuth("local", {}, { session: owner }), 422, "oauth-discovery-failed")
      expect((yield* flows).length).toBe(before)
    }))

  it.effect("401 without a session; 403 without the CSRF token", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("POST", connectionPath("crm", "oauth"), { body: {} }), 401, "unauthenticated")
      expectProblem(yield* beginOAuth("crm", {}, { csrf: null }), 403, "csrf-token-invalid")
    }))
})
