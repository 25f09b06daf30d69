/**
 * The MCP tool `get_agent_trust` of the directory's MCP server at `/mcp`:
 * the same service call as Trust_GetAgentTrust, so its `structuredContent` is the REST body
 * (data and meta.freshness), with the REST problems (404 agent-not-found as a tool error).
 */
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { call } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const atlas = DemoAgents[0]
const publicKey = DemoApiKeys.public.key

const connect = Effect.flatMap(HttpServer.HttpServer, (server) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const address = server.address as HttpServer.TcpAddress
      const client = new Client({ name: "trust-test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${address.port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${publicKey}` } }
      }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  ))

const server = makeTestServer()

layer(server.layer)("MCP tool get_agent_trust", (it) => {
  it.scoped("answers as Trust_GetAgentTrust does (data and freshness), with its schemas; unknown agent → tool error 404", () =>
    Effect.gen(function*() {
      const client = yield* connect
      const { tools } = yield* Effect.promise(() => client.listTools())
      const tool = tools.find((t) => t.name === "get_agent_trust")!
      expect(tool.inputSchema.required).toEqual(["entityPublicId"])
      expect(tool.outputSchema?.required).toEqual(expect.arrayContaining(["data", "meta"]))
      expect(tool.description).toContain("Trust_GetAgentTrust")

      const result = yield* Effect.promise(() => client.callTool({ name: "get_agent_trust", arguments: { entityPublicId: atlas.id } }))
      expect(result.isError).toBeFalsy()
      const rest = yield* call("GET", `/api/v1/agents/${atlas.id}/trust`, { headers: { "x-api-key": publicKey } })
      expect(rest.status, rest.text).toBe(200)
      const structured = result.structuredContent as { data: any; meta: any }
      expect(structured.data).toEqual(rest.body.data)
      expect(structured.meta.freshness).toEqual(rest.body.meta.freshness)
      // its ratings (710 000) less the penalty of its open HIGH finding (100 000; docs/methodology.md)
      expect(structured.data.trustPpm).toBe(610_000)
      expect((result.content as Array<{ text: string }>)[0]!.text).toContain("Trust 610000 ppm")
      expect((result.content as Array<{ text: string }>)[0]!.text).toContain("1 open finding(s) (-100000 ppm)")

      const missing = yield* Effect.promise(() =>
        client.callTool({ name: "get_agent_trust", arguments: { entityPublicId: randomUUID() } })
      )
      expect(missing.isError).toBe(true)
      expect(JSON.stringify(missing.content)).toContain("agent-not-found")
    }))
})
