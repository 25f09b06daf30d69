/**
 * The MCP client (src/mcp/Client.ts) over the guarded outbound fetch (layers/Outbound.ts),
 * against the SDK's servers of test/support/mcpServer.ts: a failure the guard raises inside
 * a transport is recorded as the guard's code on every transport, although the SSE
 * transport's event source keeps only a message of it.
 */
import { expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { DefaultOutboundOptions, makeOutbound } from "../../layers/Outbound.js"
import { fetchCatalog, type McpTransport } from "../../src/mcp/Client.js"
import { TestMcpServer } from "../support/mcpServer.js"

const failureOf = (serverUrl: string, transport: McpTransport, allowedHosts: ReadonlyArray<string>, maxBytes = DefaultOutboundOptions.maxBytes) =>
  fetchCatalog({
    serverUrl,
    transport,
    accessToken: Option.none(),
    fetch: makeOutbound({ ...DefaultOutboundOptions, allowedHosts, maxBytes, timeoutMs: 3000 }).fetch,
    timeoutMs: 3000
  }).pipe(Effect.flip, Effect.map((f) => f.code))

it.scoped("the guard's refusal and size cap keep their codes on the SSE transport as on Streamable HTTP; the same server allowed answers", () =>
  Effect.gen(function*() {
    const mcp = yield* TestMcpServer()
    const port = new URL(mcp.origin).port
    // localhost resolves to loopback, refused where the connection is made
    for (const [path, transport] of [["/legacy", "SSE"], ["/mcp", "STREAMABLE_HTTP"], ["/legacy", "AUTO"]] as const) {
      expect(yield* failureOf(`http://localhost:${port}${path}`, transport, []), transport).toBe("target-refused")
    }
    // nothing listening: network-error on either transport
    for (const transport of ["SSE", "STREAMABLE_HTTP"] as const) {
      expect(yield* failureOf("http://127.0.0.1:9/mcp", transport, ["127.0.0.1"]), transport).toBe("network-error")
    }
    // the guard's size cap on the SSE stream (the catalog's pages add up past 600 bytes)
    expect(yield* failureOf(`${mcp.origin}/legacy`, "SSE", ["127.0.0.1"], 600)).toBe("response-too-large")
    // allowed, the same SSE server answers
    const catalog = yield* fetchCatalog({
      serverUrl: `http://localhost:${port}/legacy`,
      transport: "SSE",
      accessToken: Option.none(),
      fetch: makeOutbound({ ...DefaultOutboundOptions, allowedHosts: [`localhost:${port}`] }).fetch,
      timeoutMs: 3000
    })
    expect(catalog.transport).toBe("SSE")
    expect(catalog.tools).toHaveLength(5)
  }))
