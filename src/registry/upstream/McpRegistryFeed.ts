/**
 * Reads an MCP registry's v0.1 API (`GET {baseUrl}/v0.1/servers?limit=100[&updated_since=…][&cursor=…]`)
 * page by page, each page ingested in one transaction. Incremental: after the first (full) read, only
 * what was updated since the last `updatedAt` seen (the registry includes deleted versions then). Each
 * server name is one entry (one agent); each of its versions a `registry_servers` row with the
 * upstream status. A name whose latest version is deleted upstream is marked vanished; a full read
 * also marks the names it no longer finds. Versions whose `server` breaks the `server.json` schema are
 * skipped (counted as `invalid`).
 */
import { Effect, Either, Schema } from "effect"
import { OfficialKey, ServerDetail, type ServerStatus } from "../Schemas.js"
import type { Ingest, IngestItem, ServerVersionItem } from "./Ingest.js"
import type { PoliteFetch } from "./PoliteFetch.js"
import { FetchFailure } from "./PoliteFetch.js"

/** Servers asked per page. */
export const McpPageSize = 100

const decodeServer = Schema.decodeUnknownEither(ServerDetail)

const asRecord = (u: unknown): Record<string, unknown> | undefined =>
  typeof u === "object" && u !== null && !Array.isArray(u) ? (u as Record<string, unknown>) : undefined

const dateOr = (u: unknown, fallback: Date) => {
  const d = typeof u === "string" ? new Date(u) : undefined
  return d !== undefined && !Number.isNaN(d.getTime()) ? d : fallback
}

/** Syncs an MCP_REGISTRY source; the new watermark and counts. Fails with `FetchFailure`. */
export const syncMcpRegistry = (options: {
  readonly sourceId: string
  readonly baseUrl: string
  readonly watermark: string | null
  readonly full: boolean
  readonly at: Date
  readonly fetcher: PoliteFetch
  readonly ingest: Ingest
}) =>
  Effect.gen(function*() {
    const { at, fetcher, ingest, sourceId } = options
    const since = options.full ? null : options.watermark
    const seen = new Set<string>()
    let cursor: string | undefined
    let watermark = options.watermark
    const totals = { created: 0, updated: 0, unchanged: 0, vanished: 0, invalid: 0, pages: 0 }
    do {
      const url = new URL(`${options.baseUrl.replace(/\/+$/, "")}/v0.1/servers`)
      url.searchParams.set("limit", String(McpPageSize))
      if (since !== null) url.searchParams.set("updated_since", since)
      if (cursor !== undefined) url.searchParams.set("cursor", cursor)
      const page = yield* fetcher.getJson(url.toString())
      const body = page._tag === "Fetched" ? asRecord(page.body) : undefined
      if (body === undefined || !Array.isArray(body["servers"])) return yield* new FetchFailure({ code: "invalid-feed", status: null })
      const byName = new Map<string, Array<ServerVersionItem>>()
      for (const entry of body["servers"] as Array<unknown>) {
        const decoded = decodeServer(asRecord(entry)?.["server"])
        if (Either.isLeft(decoded)) {
          totals.invalid++
          continue
        }
        const official = asRecord(asRecord(asRecord(entry)?.["_meta"])?.[OfficialKey]) ?? {}
        const status: ServerStatus = official["status"] === "deprecated" || official["status"] === "deleted" ? official["status"] : "active"
        const updatedAt = dateOr(official["updatedAt"], at)
        if (watermark === null || updatedAt.toISOString() > watermark) watermark = updatedAt.toISOString()
        const server = decoded.right
        const versions = byName.get(server.name) ?? []
        versions.push({
          server,
          status,
          statusMessage: typeof official["statusMessage"] === "string" ? official["statusMessage"] : null,
          publishedAt: dateOr(official["publishedAt"], at),
          updatedAt,
          isLatest: official["isLatest"] === true
        })
        byName.set(server.name, versions)
      }
      const present: Array<IngestItem> = []
      const vanished: Array<string> = []
      for (const [name, versions] of byName) {
        seen.add(name)
        const latest = versions.find((v) => v.isLatest) ?? versions[versions.length - 1]!
        present.push({
          key: name,
          name: latest.server.title ?? name,
          description: latest.server.description,
          servers: versions,
          etag: null,
          lastModified: null
        })
        if (latest.isLatest && latest.status === "deleted") vanished.push(name)
      }
      const counts = yield* ingest.write({ sourceId, at, present, vanished })
      totals.created += counts.created
      totals.updated += counts.updated
      totals.unchanged += counts.unchanged
      totals.vanished += counts.vanished
      totals.pages++
      const metadata = asRecord(body["metadata"])
      const next = metadata?.["nextCursor"]
      cursor = typeof next === "string" && next.length > 0 ? next : undefined
    } while (cursor !== undefined)
    if (since === null) totals.vanished += yield* ingest.vanishMissing(sourceId, seen, at)
    return { watermark, totals }
  })
