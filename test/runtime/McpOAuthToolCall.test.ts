/**
 * A run's MCP tool call on a connection protected by OAuth (MCP authorization, revision
 * 2025-06-18: `Authorization: Bearer <access token>` on every request), through the HTTP
 * stack and the durable engine against real local servers (test/support/mcpOAuthServers.ts):
 * Mcp_CreateConnection → 401, AUTH_REQUIRED → MCP_BeginMcpOAuth → the browser at the
 * authorization server → MCP_CompleteMcpOAuth (tokens stored, catalog fetched with the token,
 * the server's tools become the agent's runtime tools) → a run calls the tool: the request
 * carries the connection's stored access token, and the server's answer is the call's result.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { afterAll } from "vitest"
import { IdsSequence } from "../../layers/Ids.js"
import { makeOutbound, Outbound } from "../../layers/Outbound.js"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { McpTokens } from "../../src/mcp/oauth/Tokens.js"
import { ensureBuiltinTools } from "../../src/runtime/tools/BuiltinTools.js"
import { testConfig, testConfigLayer } from "../support/config.js"
import { call, signIn } from "../support/http.js"
import { startAuthorizationServer, startMcpServer } from "../support/mcpOAuthServers.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"
import { send, toolCalls } from "./runLoopSupport.js"
import { awaitRun, insertConversation } from "./support.js"

const as = await startAuthorizationServer({ rfc8414: true, registration: true })
const mcp = await startMcpServer(as, { advertise: true })
afterAll(async () => {
  await mcp.close()
  await as.close()
})

const overrides = { outbound: { ...testConfig().outbound, allowedHosts: [as.host, mcp.host] } }
const server = makeTestServer(overrides)
const agent = DemoRuntimeAgents.configured

/** The connection's stored access token, as `McpTokens` hands it out (on the test server's database and clock). */
const storedToken = (connectionId: string) =>
  Effect.flatMap(McpTokens, (t) => t.accessToken(connectionId)).pipe(
    Effect.provide(McpTokens.Default.pipe(
      Layer.provide(testConfigLayer(overrides)),
      Layer.provide(Layer.succeed(Outbound, makeOutbound(testConfig(overrides).outbound)))
    )),
    Effect.withClock(server.clock)
  )

layer(server.layer, { excludeTestServices: true })("a run's MCP tool call on an OAuth-protected connection", (it) => {
  it.effect("sends the connection's stored access token: the server answers, the call SUCCEEDED with its answer", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* ensureBuiltinTools(agent, TestEpoch).pipe(Effect.provide(IdsSequence("000000ab")), Effect.orDie)
      yield* sql`UPDATE agent_runtime_configs SET tool_grants = ${JSON.stringify({ "oauth-tools.ping": "GRANTED" })}::jsonb
                 WHERE agent_id = ${agent}`.pipe(Effect.orDie)
      const owner = yield* signIn("owner")
      const connectionsPath = `/api/v1/agents/${agent}/mcp/connections`

      // the protected server answers 401: AUTH_REQUIRED
      const created = yield* call("POST", connectionsPath, {
        session: owner, body: { name: "OAuth tools", serverUrl: mcp.url, transport: "STREAMABLE_HTTP" }
      })
      expect(created.status, created.text).toBe(201)
      const connectionId: string = created.body.data.id
      const stateOf = Effect.map(
        call("GET", `${connectionsPath}/${connectionId}`, { session: owner }),
        (reply) => reply.body.data.state as string
      )
      yield* waitFor("AUTH_REQUIRED", until(stateOf, (s) => s === "AUTH_REQUIRED", (s) => s), 20_000, 50)

      // the OAuth flow: begin, the authorization server approves at once, the callback stores the tokens
      const begun = yield* call("POST", `${connectionsPath}/${connectionId}/oauth`, { session: owner, body: {} })
      expect(begun.status, begun.text).toBe(200)
      const redirect = yield* Effect.promise(async () => {
        const response = await fetch(begun.body.data.authorizationUrl, { redirect: "manual" })
        return new URL(response.headers.get("location")!)
      })
      const landed = yield* call("GET", `${redirect.pathname}${redirect.search}`, { session: owner })
      expect(landed.status, landed.text).toBe(200)
      expect(landed.body.data.connectionState).toBe("CONNECTED")

      // the catalog fetched with the token makes the server's tool the agent's runtime tool
      const pingTools = Effect.map(
        sql<{ n: number }>`SELECT count(*)::int AS n FROM runtime_tools WHERE agent_id = ${agent}
                             AND stable_name = 'oauth-tools.ping' AND available`,
        ([row]) => row!.n
      )
      yield* waitFor("the runtime tool oauth-tools.ping", until(pingTools, (n) => n === 1, (n) => `${n} stored`), 20_000, 50)

      // the run calls it: the request carries the stored token, and the server's answer is the result
      const conversation = yield* insertConversation(agent, "owner", "CHAT")
      const refusedBefore = mcp.refused
      const runId = yield* send(owner, conversation, "/tool oauth-tools__ping {}")
      expect((yield* awaitRun(runId)).state).toBe("SUCCEEDED")
      const [pinged, ...more] = yield* toolCalls(runId)
      expect(more).toEqual([])
      expect(pinged).toMatchObject({
        stableName: "oauth-tools.ping",
        state: "SUCCEEDED",
        isError: false,
        errorCode: null,
        result: { content: [{ type: "text", text: "pong" }] }
      })
      expect(mcp.refused).toBe(refusedBefore)
      const token = yield* storedToken(connectionId)
      expect(mcp.calls).toEqual([{ name: "ping", token: Redacted.value(token) }])
    }))
})
