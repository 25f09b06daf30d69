/**
 * Real MCP servers for tests, built with `@modelcontextprotocol/sdk`'s low-level
 * `Server` (whose list handlers we write, so pagination is real: `pageSize` items per
 * page and an opaque `nextCursor`) on a node:http server on 127.0.0.1:
 *
 * - `/mcp`: Streamable HTTP (stateless: a `Server` and transport per request);
 * - `/legacy`: the 2024-11-05 HTTP+SSE transport only: GET opens the event stream,
 *   POST `/legacy/messages?sessionId=…` carries the client's messages, and a POST to
 *   `/legacy` itself is a 405 (what makes an AUTO client fall back to SSE);
 * - `/protected`: every request answered 401 with a Bearer challenge naming its
 *   protected-resource metadata (RFC 9728 §5.1);
 * - `/redirect`: every request answered 307 to the `to` query parameter (default: the cloud
 *   metadata address).
 *
 * The offer (`tools`, …) is mutable, so a test can change it between fetches. `tools/call`
 * is answered by the test's `handlers` (by tool name; a tool without one is a protocol
 * error), and every call is recorded in `calls` when it arrives (and the TCP port it came
 * from in `callerPorts`: which process made it).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** What the test server offers; change it between fetches. */
export interface McpOffer {
  tools: Array<Record<string, unknown>>
  resources: Array<Record<string, unknown>>
  resourceTemplates: Array<Record<string, unknown>>
  prompts: Array<Record<string, unknown>>
}

export interface TestMcpServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  readonly offer: McpOffer
  /** List requests served, by method (`tools/list`: one per page). */
  readonly served: Record<string, number>
  /** Every `tools/call` received, in order of arrival (before its handler answers). */
  readonly calls: Array<{ readonly name: string; readonly arguments: Record<string, unknown> }>
  /** The client's TCP port (on 127.0.0.1) of each of `calls`, in the same order. */
  readonly callerPorts: Array<number>
  /** What answers `tools/call`, by tool name; set by the test. */
  readonly handlers: Record<string, (args: Record<string, unknown>) => Promise<CallToolResult>>
}

/** Five tools (three pages of two), two resources, one template, one prompt. */
export const initialOffer = (): McpOffer => ({
  tools: ["alpha", "bravo", "charlie", "delta", "echo"].map((name, i) => ({
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    annotations: { readOnlyHint: i % 2 === 0 }
  })),
  resources: [
    { uri: "test://one", name: "One", mimeType: "text/plain" },
    { uri: "test://two", name: "Two", mimeType: "text/markdown" }
  ],
  resourceTemplates: [{ uriTemplate: "test://page/{slug}", name: "Page" }],
  prompts: [{ name: "summarize", description: "Summarize", arguments: [{ name: "slug", required: true }] }]
})

/** One page of `items` after `cursor` (`p<n>` = index n), `pageSize` long. */
const page = <T>(items: ReadonlyArray<T>, cursor: string | undefined, pageSize: number) => {
  const start = cursor === undefined ? 0 : Number(/^p(\d+)$/.exec(cursor)?.[1] ?? NaN)
  if (!Number.isInteger(start)) throw new McpError(ErrorCode.InvalidParams, "invalid cursor")
  const next = start + pageSize
  return { items: items.slice(start, next), nextCursor: next < items.length ? `p${next}` : undefined }
}

const makeServer = (
  offer: McpOffer,
  served: Record<string, number>,
  pageSize: number,
  calls: TestMcpServer["calls"],
  handlers: TestMcpServer["handlers"],
  callerPorts: Array<number>,
  callerPort: number
) => {
  const server = new Server(
    { name: "test-mcp", version: "3.1.4", title: "Test MCP" },
    { capabilities: { tools: { listChanged: false }, resources: {}, prompts: {} } }
  )
  const count = (method: string) => (served[method] = (served[method] ?? 0) + 1)
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    count("tools/list")
    const { items, nextCursor } = page(offer.tools, request.params?.cursor, pageSize)
    return { tools: items as never, ...(nextCursor ? { nextCursor } : {}) }
  })
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = request.params.arguments ?? {}
    calls.push({ name: request.params.name, arguments: args })
    callerPorts.push(callerPort)
    const handler = handlers[request.params.name]
    if (handler === undefined) throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}`)
    return handler(args)
  })
  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    count("resources/list")
    const { items, nextCursor } = page(offer.resources, request.params?.cursor, pageSize)
    return { resources: items as never, ...(nextCursor ? { nextCursor } : {}) }
  })
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
    count("resources/templates/list")
    const { items, nextCursor } = page(offer.resourceTemplates, request.params?.cursor, pageSize)
    return { resourceTemplates: items as never, ...(nextCursor ? { nextCursor } : {}) }
  })
  server.setRequestHandler(ListPromptsRequestSchema, (request) => {
    count("prompts/list")
    const { items, nextCursor } = page(offer.prompts, request.params?.cursor, pageSize)
    return { prompts: items as never, ...(nextCursor ? { nextCursor } : {}) }
  })
  return server
}

/** A test MCP server (see the module's description), closed with the scope. */
export const TestMcpServer = (options: { readonly pageSize?: number } = {}) =>
  Effect.acquireRelease(
    Effect.async<{ readonly http: ReturnType<typeof createServer>; readonly server: TestMcpServer }>((resume) => {
      const offer = initialOffer()
      const served: Record<string, number> = {}
      const calls: TestMcpServer["calls"] = []
      const handlers: TestMcpServer["handlers"] = {}
      const callerPorts: Array<number> = []
      const pageSize = options.pageSize ?? 2
      const sse = new Map<string, SSEServerTransport>()
      let origin = ""
      const handle = async (req: IncomingMessage, res: ServerResponse) => {
        const url = new URL(req.url ?? "/", origin)
        if (url.pathname === "/protected") {
          res.writeHead(401, {
            "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/protected"`,
            "content-type": "application/json"
          })
          res.end(JSON.stringify({ error: "invalid_token" }))
          return
        }
        if (url.pathname === "/redirect") {
          res.writeHead(307, { location: url.searchParams.get("to") ?? "http://169.254.169.254/latest/meta-data/" }).end()
          return
        }
        if (url.pathname === "/mcp") {
          const transport = new StreamableHTTPServerTransport() // no session id generator: stateless
          const server = makeServer(offer, served, pageSize, calls, handlers, callerPorts, req.socket.remotePort ?? 0)
          res.on("close", () => {
            void transport.close()
            void server.close()
          })
          await server.connect(transport)
          await transport.handleRequest(req, res)
          return
        }
        if (url.pathname === "/legacy" && req.method === "GET") {
          const transport = new SSEServerTransport("/legacy/messages", res)
          sse.set(transport.sessionId, transport)
          res.on("close", () => sse.delete(transport.sessionId))
          await makeServer(offer, served, pageSize, calls, handlers, callerPorts, req.socket.remotePort ?? 0).connect(transport)
          return
        }
        if (url.pathname === "/legacy/messages" && req.method === "POST") {
          const transport = sse.get(url.searchParams.get("sessionId") ?? "")
          if (transport === undefined) {
            res.writeHead(404).end()
            return
          }
          await transport.handlePostMessage(req, res)
          return
        }
        res.writeHead(url.pathname === "/legacy" ? 405 : 404).end()
      }
      const http = createServer((req, res) => {
        handle(req, res).catch(() => {
          if (!res.headersSent) res.writeHead(500)
          res.end()
        })
      })
      http.listen(0, "127.0.0.1", () => {
        origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
        resume(Effect.succeed({ http, server: { origin, offer, served, calls, callerPorts, handlers } }))
      })
    }),
    ({ http }) =>
      Effect.sync(() => http.closeAllConnections()).pipe(
        Effect.zipRight(Effect.async<void>((resume) => {
          http.close(() => resume(Effect.void))
        }))
      )
  ).pipe(Effect.map(({ server }) => server))
