/**
 * Local upstreams for the registry tests and benchmark, on 127.0.0.1:
 * - {@link startRegistryServer}: an MCP registry speaking the read API v0.1 (`GET /v0.1/servers` with
 *   `limit`, `cursor`, `updated_since`, `include_deleted`), serving a mutable list of server versions in
 *   the registry's `ServerResponse` shape, ordered by name then version, cursors opaque offsets;
 * - {@link startStaticServer}: JSON documents by path (agent cards, registration files) with `ETag` and
 *   `Last-Modified`, answering 304 to a matching `If-None-Match`, and counting requests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** One version upstream. */
export interface UpstreamVersion {
  readonly name: string
  readonly version: string
  readonly description: string
  readonly title?: string
  readonly status: "active" | "deprecated" | "deleted"
  readonly updatedAt: string
  readonly isLatest: boolean
  readonly remoteUrl?: string
  readonly extra?: Record<string, unknown>
}

/** A local HTTP server: its origin, and a stop. */
export interface Local {
  readonly origin: string
  readonly stop: () => Promise<void>
}

const listen = (handler: (req: IncomingMessage, res: ServerResponse) => void) =>
  new Promise<{ server: Server; origin: string }>((resolve) => {
    const server = createServer(handler)
    server.keepAliveTimeout = 60_000
    server.listen(0, "127.0.0.1", () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
  })

const stopper = (server: Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/** The `ServerResponse` of an upstream version. */
export const upstreamResponse = (v: UpstreamVersion) => ({
  server: {
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    name: v.name,
    description: v.description,
    ...(v.title === undefined ? {} : { title: v.title }),
    version: v.version,
    repository: { url: `https://github.com/example/${v.name.split("/")[1]}`, source: "github" },
    packages: [{ registryType: "npm", identifier: `@example/${v.name.split("/")[1]}`, version: v.version, transport: { type: "stdio" } }],
    ...(v.remoteUrl === undefined ? {} : { remotes: [{ type: "streamable-http", url: v.remoteUrl }] }),
    ...v.extra
  },
  _meta: {
    "io.modelcontextprotocol.registry/official": {
      status: v.status,
      publishedAt: "2025-09-01T00:00:00Z",
      updatedAt: v.updatedAt,
      isLatest: v.isLatest
    }
  }
})

/** Starts a local MCP registry over `versions` (the array is read on every request: mutate it to change upstream). */
export const startRegistryServer = async (versions: Array<UpstreamVersion>) => {
  const requests: Array<string> = []
  const { origin, server } = await listen((req, res) => {
    const url = new URL(req.url ?? "/", "http://x")
    requests.push(url.pathname + url.search)
    if (url.pathname !== "/v0.1/servers") {
      res.writeHead(404, { "content-type": "application/json" })
      return res.end(JSON.stringify({ error: "Not found" }))
    }
    const limit = Math.min(Number(url.searchParams.get("limit") ?? "30"), 100)
    const offset = Number(Buffer.from(url.searchParams.get("cursor") ?? "MA==", "base64").toString())
    const since = url.searchParams.get("updated_since")
    const deleted = since !== null || url.searchParams.get("include_deleted") === "true"
    const selected = versions
      .filter((v) => (deleted || v.status !== "deleted") && (since === null || Date.parse(v.updatedAt) > Date.parse(since)))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : a.version > b.version ? 1 : 0))
    const page = selected.slice(offset, offset + limit)
    const next = offset + limit < selected.length ? Buffer.from(String(offset + limit)).toString("base64") : undefined
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify({ servers: page.map(upstreamResponse), metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) } }))
  })
  return { origin, requests, stop: stopper(server) }
}

/** Starts a server of JSON `documents` by path (mutate the map to change them; a missing path is 404). */
export const startStaticServer = async (documents: Map<string, unknown>) => {
  const requests: Array<{ path: string; conditional: boolean; status: number }> = []
  const { origin, server } = await listen((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname
    const doc = documents.get(path)
    const conditional = req.headers["if-none-match"] !== undefined
    if (doc === undefined) {
      requests.push({ path, conditional, status: 404 })
      res.writeHead(404, { "content-type": "application/json" })
      return res.end("{}")
    }
    const body = JSON.stringify(doc)
    const etag = `"${Buffer.from(body).toString("base64").slice(-16)}${body.length}"`
    if (req.headers["if-none-match"] === etag) {
      requests.push({ path, conditional, status: 304 })
      res.writeHead(304, { etag })
      return res.end()
    }
    requests.push({ path, conditional, status: 200 })
    res.writeHead(200, { "content-type": "application/json", etag, "last-modified": "Mon, 01 Jun 2026 00:00:00 GMT" })
    res.end(body)
  })
  return { origin, requests, stop: stopper(server) }
}
