/**
 * MCP OAuth to the end (MCP authorization, revision 2025-06-18), through
 * the HTTP stack against real local servers (test/support/mcpOAuthServers.ts): an
 * authorization server (oauth2-mock-server, with RFC 8414 metadata and RFC 7591
 * registration added in front when asked) and MCP servers (@modelcontextprotocol/sdk)
 * that accept only that server's tokens for their own resource.
 *
 * MCP_BeginMcpOAuth discovers and registers → the browser follows the authorization URL →
 * the server redirects to MCP_CompleteMcpOAuth → tokens sealed at rest, connection
 * CONNECTED → the MCP server accepts the token from `McpTokens.accessToken` → past its
 * expiry it is refreshed (once, even when asked twice at the same time).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll } from "vitest"
import { makeOutbound, Outbound } from "../../layers/Outbound.js"
import { purgeExpiredOAuthFlows } from "../../src/mcp/oauth/Purges.js"
import { McpRepo } from "../../src/mcp/Repo.js"
import { McpTokens } from "../../src/mcp/oauth/Tokens.js"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../support/http.js"
import { startAuthorizationServer, startMcpServer } from "../support/mcpOAuthServers.js"
import { testConfig, testConfigLayer } from "../support/config.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

// A: RFC 8414 metadata + dynamic registration; the MCP server's 401 names its metadata
const asA = await startAuthorizationServer({ rfc8414: true, registration: true })
const mcpA = await startMcpServer(asA, { advertise: true })
// B: OpenID Connect discovery only, no registration: the client comes from MCP_OAUTH_CLIENTS;
// the 401 names no metadata, so the RFC 9728 well-known URI is used
const asB = await startAuthorizationServer({ rfc8414: false, registration: false })
const mcpB = await startMcpServer(asB, { advertise: false })
// C: no registration and no configured client
const asC = await startAuthorizationServer({ rfc8414: true, registration: false })
const mcpC = await startMcpServer(asC, { advertise: true })
// D: told to serve hostile URLs in its metadata (metadataOverrides, authorizationServers)
const asD = await startAuthorizationServer({ rfc8414: true, registration: true })
const mcpD = await startMcpServer(asD, { advertise: true })
afterAll(async () => {
  for (const s of [mcpA, mcpB, mcpC, mcpD, asA, asB, asC, asD]) await s.close()
})

const overrides = {
  outbound: {
    ...testConfig().outbound,
    allowedHosts: [asA.host, mcpA.host, asB.host, mcpB.host, asC.host, mcpC.host, asD.host, mcpD.host]
  },
  mcpOAuth: {
    ...testConfig().mcpOAuth,
    clients: {
      [asB.issuer]: {
        // oauth4webapi form-encodes the Basic credentials (RFC 6749 §2.3.1: "-" becomes %2D) and the mock
        // does not decode them, so the id here has no character that encoding changes
        clientId: "directorybyhand",
        clientSecret: Redacted.make("byhandsecret"),
        tokenEndpointAuthMethod: "client_secret_basic" as const
      }
    }
  }
}
const server = makeTestServer(overrides)

/** McpTokens as the catalog fetch uses it, on the test server's database, configuration and clock. */
const tokens = Effect.flatMap(McpTokens, (t) => Effect.succeed(t)).pipe(
  Effect.provide(McpTokens.Default.pipe(
    Layer.provide(testConfigLayer(overrides)),
    Layer.provide(Layer.succeed(Outbound, makeOutbound(testConfig(overrides).outbound)))
  ))
)
const accessToken = (connectionId: string) =>
  Effect.flatMap(tokens, (t) => t.accessToken(connectionId)).pipe(Effect.withClock(server.clock))

const agent = DemoRuntimeAgents.configured

/** An AUTH_REQUIRED connection of the demo agent to `serverUrl`. */
const connectionTo = (serverUrl: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // one connection per agent and server URL: a second test of the same server starts again from AUTH_REQUIRED
    const [row] = yield* sql<{ id: string }>`
      INSERT INTO mcp_connections (id, agent_id, name, server_url, state, created_at, updated_at)
      VALUES (${randomUUID()}, ${agent}, 'OAuth test', ${serverUrl}, 'AUTH_REQUIRED', ${TestEpoch}, ${TestEpoch})
      ON CONFLICT (agent_id, server_url) DO UPDATE SET state = 'AUTH_REQUIRED'
      RETURNING id`
    return row!.id
  }).pipe(Effect.orDie)

const begin = (connectionId: string, session: Session, body: unknown = {}) =>
  call("POST", `/api/v1/agents/${agent}/mcp/connections/${connectionId}/oauth`, { body, session })

/** The browser at the authorization server: where it is sent back to (the server approves at once). */
const authorize = (authorizationUrl: string) =>
  Effect.promise(async () => {
    const response = await fetch(authorizationUrl, { redirect: "manual" })
    expect(response.status).toBe(302)
    return new URL(response.headers.get("location")!)
  })

/** The browser arriving at our redirect endpoint (through the test server). */
const land = (redirect: URL, session: Session) => call("GET", `${redirect.pathname}${redirect.search}`, { session })

const connectionRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ state: string; version: number; clientId: string; source: string; resource: string }>`
      SELECT state, version::int AS version, oauth_client_id AS "clientId", oauth_client_source AS source,
             oauth_resource AS resource
      FROM mcp_connections WHERE id = ${id}`).pipe(Effect.map((r) => r[0]!), Effect.orDie)

const tokenRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ accessToken: string; refreshToken: string | null; expiresAt: string | null; scopes: Array<string> }>`
      SELECT access_token AS "accessToken", refresh_token AS "refreshToken", api_ts(expires_at) AS "expiresAt", scopes
      FROM mcp_oauth_tokens WHERE connection_id = ${id}`).pipe(Effect.map((r) => r[0]), Effect.orDie)

/** Lists the MCP server's tools with `token` through the SDK client. */
const listTools = (url: string, token: Redacted.Redacted<string>) =>
  Effect.promise(async () => {
    const client = new Client({ name: "oauth-test", version: "1.0.0" })
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${Redacted.value(token)}` } }
    })
    await client.connect(transport)
    try {
      return (await client.listTools()).tools.map((t) => t.name)
    } finally {
      await client.close()
    }
  })

layer(server.layer)("MCP OAuth to the end", (it) => {
  it.effect("discovery from the 401, RFC 8414, dynamic registration → callback → sealed tokens → CONNECTED → accepted → refreshed", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const connectionId = yield* connectionTo(mcpA.url)

      const begun = yield* begin(connectionId, owner)
      expect(begun.status, begun.text).toBe(200)
      expect(begun.body.data.expiresAt).toBe(new Date(TestEpoch.getTime() + 10 * 60_000).toISOString())
      const url = new URL(begun.body.data.authorizationUrl)
      expect(`${url.origin}${url.pathname}`).toBe(`${asA.issuer}/authorize`)
      expect(asA.registrations).toHaveLength(1)
      const registration = asA.registrations[0]!
      expect(registration.request).toMatchObject({
        redirect_uris: ["https://directory.test/api/v1/mcp/oauth/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none"
      })
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        response_type: "code",
        client_id: registration.clientId,
        redirect_uri: "https://directory.test/api/v1/mcp/oauth/callback",
        resource: mcpA.url,
        scope: "mcp.read", // the protected resource's scopes_supported (none requested)
        code_challenge_method: "S256"
      })
      expect(yield* connectionRow(connectionId)).toMatchObject({
        clientId: registration.clientId,
        source: "REGISTERED",
        resource: mcpA.url
      })

      const redirect = yield* authorize(begun.body.data.authorizationUrl)
      expect(`${redirect.origin}${redirect.pathname}`).toBe("https://directory.test/api/v1/mcp/oauth/callback")
      const landed = yield* land(redirect, owner)
      expect(landed.status, landed.text).toBe(200)
      expect(landed.headers["cache-control"]).toBe("no-store")
      expectMeta(landed)
      expect(landed.body.data).toEqual({
        entityPublicId: agent,
        connectionPublicId: connectionId,
        connectionState: "CONNECTED",
        scopes: ["mcp.read"],
        accessTokenExpiresAt: new Date(TestEpoch.getTime() + 3600_000).toISOString()
      })
      expect(asA.tokenRequests.at(-1)).toEqual({ grantType: "authorization_code", resource: mcpA.url, basicAuth: false })
      expect((yield* connectionRow(connectionId)).state).toBe("CONNECTED")
      // the callback started the catalog refresh, which fetched the server's catalog with the new token
      const sql = yield* SqlClient.SqlClient
      const catalogTools: unknown = yield* waitFor(
        "the catalog stored",
        Effect.map(
          sql<{ tools: unknown }>`SELECT tools FROM mcp_catalogs WHERE connection_id = ${connectionId}`,
          ([row]) => row === undefined ? undefined : typeof row.tools === "string" ? JSON.parse(row.tools) : row.tools
        ),
        20_000,
        50
      )
      expect((catalogTools as Array<{ name: string }>).map((t) => t.name)).toEqual(["ping"])
      expect((yield* connectionRow(connectionId)).state).toBe("CONNECTED")
      // the state is used once: a replay of the redirect is refused, and changes nothing
      expectProblem(yield* land(redirect, owner), 409, "oauth-flow-consumed")

      // the tokens at rest are sealed, not the tokens
      const token = yield* accessToken(connectionId)
      const stored = (yield* tokenRow(connectionId))!
      expect(stored.accessToken).toMatch(/^v1\.test\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/)
      expect(stored.accessToken).not.toContain(Redacted.value(token))
      expect(stored.accessToken).not.toContain(Redacted.value(token).split(".")[1]!)
      expect(stored.refreshToken).toMatch(/^v1\.test\./)
      expect(landed.text).not.toContain(Redacted.value(token))

      // the MCP server refuses without the token and accepts it
      const refusedBefore = mcpA.refused
      expect(yield* listTools(mcpA.url, token)).toEqual(["ping"])
      expect(mcpA.refused).toBe(refusedBefore)
      const noToken = yield* Effect.promise(() => fetch(mcpA.url, { method: "POST", body: "{}" }))
      expect(noToken.status).toBe(401)

      // before expiry the same token; within a minute of it a refresh, once for two callers
      server.clock.advance(3600_000 - 120_000)
      expect(Redacted.value(yield* accessToken(connectionId))).toBe(Redacted.value(token))
      server.clock.advance(90_000)
      const refreshesBefore = asA.tokenRequests.filter((r) => r.grantType === "refresh_token").length
      const [first, second] = yield* Effect.all([accessToken(connectionId), accessToken(connectionId)], { concurrency: 2 })
      expect(Redacted.value(first)).not.toBe(Redacted.value(token))
      expect(Redacted.value(second)).toBe(Redacted.value(first))
      const refreshes = asA.tokenRequests.filter((r) => r.grantType === "refresh_token")
      expect(refreshes.length).toBe(refreshesBefore + 1)
      expect(refreshes.at(-1)!.resource).toBe(mcpA.url)
      const refreshed = (yield* tokenRow(connectionId))!
      expect(refreshed.expiresAt).toBe(new Date(TestEpoch.getTime() + 3600_000 - 30_000 + 3600_000).toISOString())
      expect(yield* listTools(mcpA.url, first)).toEqual(["ping"])

      // an expired flow is purged (PurgeMcpOAuthFlows, run here rather than waited for): then unknown
      yield* purgeExpiredOAuthFlows.pipe(Effect.provide(McpRepo.Default), Effect.withClock(server.clock), Effect.orDie)
      expectProblem(yield* land(redirect, owner), 400, "oauth-state-invalid")
    }))

  it.effect("OIDC discovery fallback, the RFC 9728 well-known URI, a client from MCP_OAUTH_CLIENTS (client_secret_basic)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const connectionId = yield* connectionTo(mcpB.url)
      const begun = yield* begin(connectionId, owner, { scopes: ["mcp.read", "profile"] })
      expect(begun.status, begun.text).toBe(200)
      const url = new URL(begun.body.data.authorizationUrl)
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: "directorybyhand",
        resource: mcpB.url,
        scope: "mcp.read profile"
      })
      expect(yield* connectionRow(connectionId)).toMatchObject({ source: "CONFIGURED", clientId: "directorybyhand" })
      const landed = yield* land(yield* authorize(begun.body.data.authorizationUrl), owner)
      expect(landed.status, landed.text).toBe(200)
      expect(landed.body.data.scopes).toEqual(["mcp.read", "profile"])
      expect(asB.tokenRequests.at(-1)).toEqual({ grantType: "authorization_code", resource: mcpB.url, basicAuth: true })
      expect(yield* listTools(mcpB.url, yield* accessToken(connectionId))).toEqual(["ping"])
      expect(landed.text).not.toContain("byhandsecret")
    }))

  it.effect("422 configuration-missing: no registration endpoint and no configured client; 422 oauth-discovery-failed", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const missing = yield* begin(yield* connectionTo(mcpC.url), owner)
      expectProblem(missing, 422, "configuration-missing")
      expect(missing.body.detail).toContain("MCP_OAUTH_CLIENTS")
      // a server on an address the outbound client refuses
      const refused = yield* begin(yield* connectionTo("http://10.1.2.3/mcp"), owner)
      expectProblem(refused, 422, "oauth-discovery-failed")
    }))

  it.effect("422 oauth-metadata-url-refused: javascript:, data: or http: on a host not allowed, in each URL field of the metadata", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const connectionId = yield* connectionTo(mcpD.url)
      const hostile = [
        "javascript:alert(document.domain)//",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "http://login.attacker.example/authorize",
        "https://user:secret@login.attacker.example/authorize",
        "https://login.attacker.example/authorize#fragment"
      ]
      const fields: Array<[string, (value: string) => void]> = [
        ...["authorization_endpoint", "token_endpoint", "registration_endpoint", "issuer"].map((field) =>
          [field, (value: string) => {
            asD.metadataOverrides = { [field]: value }
            mcpD.authorizationServers = undefined
          }] as [string, (value: string) => void]
        ),
        ["authorization_servers", (value: string) => {
          asD.metadataOverrides = {}
          mcpD.authorizationServers = [value]
        }]
      ]
      for (const [field, serve] of fields) {
        for (const value of hostile) {
          serve(value)
          const reply = yield* begin(connectionId, owner)
          expectProblem(reply, 422, "oauth-metadata-url-refused")
          expect(reply.body.detail, `${field}: ${value}`).toContain(`its field ${field} must be an https URL`)
          expect(reply.body.detail).toContain("OUTBOUND_ALLOWED_HOSTS")
          expect(reply.text).not.toContain(value)
          expect(reply.text).not.toContain("attacker")
          expect(reply.text).not.toContain("PHNjcmlwd")
        }
      }
      // nothing was registered, no flow began, nothing was cached
      expect(asD.registrations).toEqual([])
      const sql = yield* SqlClient.SqlClient
      const [flows] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM mcp_oauth_flows WHERE connection_id = ${connectionId}`
        .pipe(Effect.orDie)
      expect(flows!.n).toBe(0)
      expect((yield* connectionRow(connectionId)).clientId).toBeNull()

      // sound metadata: http on an allowed host passes
      asD.metadataOverrides = {}
      mcpD.authorizationServers = undefined
      const begun = yield* begin(connectionId, owner)
      expect(begun.status, begun.text).toBe(200)
      expect(new URL(begun.body.data.authorizationUrl).origin).toBe(asD.issuer)
      expect(asD.registrations).toHaveLength(1)
    }))

  it.effect("cached metadata that breaks the rule is not used: begin discovers again, the callback answers 422 naming the field", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const sql = yield* SqlClient.SqlClient
      asD.metadataOverrides = {}
      mcpD.authorizationServers = undefined
      const connectionId = yield* connectionTo(mcpD.url)
      const first = yield* begin(connectionId, owner)
      expect(first.status, first.text).toBe(200)
      const redirect = yield* authorize(first.body.data.authorizationUrl)

      // as a cache written before the rule would hold it
      const hostile = "javascript:alert(document.domain)//"
      const poison = (field: string) =>
        sql`UPDATE mcp_connections SET oauth_as_metadata = jsonb_set(oauth_as_metadata, ${`{${field}}`}::text[], ${JSON.stringify(hostile)}::jsonb)
            WHERE id = ${connectionId}`.pipe(Effect.orDie)
      yield* poison("token_endpoint")
      const tokenRequests = asD.tokenRequests.length
      const landed = yield* land(redirect, owner)
      expectProblem(landed, 422, "oauth-metadata-url-refused")
      expect(landed.body.detail).toContain("its field token_endpoint must be an https URL")
      expect(landed.text).not.toContain(hostile)
      expect(asD.tokenRequests).toHaveLength(tokenRequests)

      yield* sql`UPDATE mcp_connections SET oauth_authorization_endpoint = ${hostile} WHERE id = ${connectionId}`.pipe(Effect.orDie)
      yield* poison("authorization_endpoint")
      const again = yield* begin(connectionId, owner)
      expect(again.status, again.text).toBe(200)
      expect(new URL(again.body.data.authorizationUrl).origin).toBe(asD.issuer)
      const [row] = yield* sql<{ endpoint: string }>`SELECT oauth_authorization_endpoint AS endpoint FROM mcp_connections
        WHERE id = ${connectionId}`.pipe(Effect.orDie)
      expect(row!.endpoint).toBe(`${asD.issuer}/authorize`)
    }))

  it.effect("refused states: unknown, another account's (not consumed by it), expired, denied by the server", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const member = yield* signIn("member")
      const connectionId = yield* connectionTo(mcpA.url)

      const unknown = yield* call("GET", `/api/v1/mcp/oauth/callback?state=${randomUUID()}&code=x`, { session: owner })
      expectProblem(unknown, 400, "oauth-state-invalid")
      expect(unknown.body.errors).toEqual([{ in: "query", pointer: "/state", detail: "must be the state of an OAuth flow you began" }])
      expectProblem(yield* call("GET", "/api/v1/mcp/oauth/callback?code=x", { session: owner }), 400, "invalid-request")
      expectProblem(yield* call("GET", `/api/v1/mcp/oauth/callback?state=abc&code=x`), 401, "unauthenticated")

      // another account's browser cannot complete (or spend) the owner's flow
      const begun = yield* begin(connectionId, owner)
      const redirect = yield* authorize(begun.body.data.authorizationUrl)
      expectProblem(yield* land(redirect, member), 400, "oauth-state-invalid")
      const landed = yield* land(redirect, owner)
      expect(landed.status, landed.text).toBe(200)

      // expired: 10 minutes after it began. The purge of expired flows (PurgeMcpOAuthFlows, every
      // 15 minutes) must not delete it first: it begins just after a quarter hour, once that quarter's
      // purge has run. That run can come late (the engine delivers it after the clock moved), so a
      // sentinel flow expiring at the quarter tells when it has run; the next one is 15 minutes on.
      const quarter = 15 * 60_000
      const nextQuarter = new Date(server.clock.unsafeCurrentTimeMillis() + quarter - (server.clock.unsafeCurrentTimeMillis() % quarter))
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO mcp_oauth_flows (id, connection_id, account_id, state, code_verifier, scopes, redirect_uri,
                   created_at, expires_at)
                 SELECT ${randomUUID()}, connection_id, account_id, ${`sentinel-${randomUUID()}`}, code_verifier, scopes,
                   redirect_uri, created_at, ${nextQuarter}
                 FROM mcp_oauth_flows ORDER BY created_at DESC LIMIT 1`.pipe(Effect.orDie)
      server.clock.advance(nextQuarter.getTime() - server.clock.unsafeCurrentTimeMillis() + 1_000)
      const sentinels = Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM mcp_oauth_flows WHERE state LIKE 'sentinel-%'`, ([row]) => row!.n)
      yield* waitFor("the quarter's purge", until(sentinels, (n) => n === 0), 30_000, 25)
      const late = yield* begin(connectionId, owner)
      const lateRedirect = yield* authorize(late.body.data.authorizationUrl)
      server.clock.advance(10 * 60_000)
      const expired = yield* land(lateRedirect, owner)
      expectProblem(expired, 410, "oauth-flow-expired")

      // the server answers with an error: the flow is used up
      asA.denyNext = "access_denied"
      const denied = yield* begin(connectionId, owner)
      const deniedRedirect = yield* authorize(denied.body.data.authorizationUrl)
      expect(deniedRedirect.searchParams.get("error")).toBe("access_denied")
      const answer = yield* land(deniedRedirect, owner)
      expectProblem(answer, 422, "oauth-authorization-denied")
      expect(answer.body.detail).toContain("access_denied")
      expectProblem(yield* land(deniedRedirect, owner), 409, "oauth-flow-consumed")
    }))
})
