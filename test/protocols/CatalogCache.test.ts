/**
 * The `public-catalog` cache of GET /api/v1/protocols: a strong ETag, 304 on a
 * matching If-None-Match, and a new body (and ETag) once the TTL has passed
 * (manual clock) or the cache is invalidated. Correctness only, no timing.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CatalogTtlMillis, ProtocolCatalogCache } from "../../src/protocols/CatalogCache.js"
import { call } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const server = makeTestServer()

/** The body without the per-response `meta.requestId`/`meta.generatedAt`. */
const stable = (text: string) => {
  const { meta, ...rest } = JSON.parse(text)
  const { generatedAt: _g, requestId: _r, ...otherMeta } = meta
  return JSON.stringify({ ...rest, meta: otherMeta })
}

const renameMcp = (name: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE protocols SET name = ${name} WHERE key = 'mcp'`)

layer(server.layer)("the public-catalog cache of Protocols_GetProtocolCatalog", (it) => {
  it.effect("sends a strong ETag that is stable, and answers a matching If-None-Match with 304 and no body", () =>
    Effect.gen(function*() {
      const first = yield* call("GET", "/api/v1/protocols")
      const second = yield* call("GET", "/api/v1/protocols")
      const etag = first.headers["etag"]!
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/)
      expect(second.headers["etag"]).toBe(etag)
      expect(stable(second.text)).toBe(stable(first.text))
      expect(second.body.meta.requestId).not.toBe(first.body.meta.requestId)

      const notModified = yield* call("GET", "/api/v1/protocols", { headers: { "if-none-match": etag } })
      expect(notModified.status).toBe(304)
      expect(notModified.text).toBe("")
      expect(notModified.headers["etag"]).toBe(etag)
      expect(notModified.headers["cache-control"]).toBe("public, max-age=300, stale-while-revalidate=60")
      const weakOrListed = yield* call("GET", "/api/v1/protocols", { headers: { "if-none-match": `"other", W/${etag}` } })
      expect(weakOrListed.status).toBe(304)
      const other = yield* call("GET", "/api/v1/protocols", { headers: { "if-none-match": `"other"` } })
      expect(other.status).toBe(200)
      expect(other.headers["etag"]).toBe(etag)
    }))

  it.effect("serves the cached catalog within the TTL and the changed one after it", () =>
    Effect.gen(function*() {
      const before = yield* call("GET", "/api/v1/protocols")
      yield* renameMcp("Model Context Protocol (renamed)")
      const cached = yield* call("GET", "/api/v1/protocols")
      expect(cached.headers["etag"]).toBe(before.headers["etag"])
      expect(stable(cached.text)).toBe(stable(before.text))

      server.clock.advance(CatalogTtlMillis)
      const fresh = yield* call("GET", "/api/v1/protocols", { headers: { "if-none-match": before.headers["etag"]! } })
      expect(fresh.status).toBe(200)
      expect(fresh.headers["etag"]).not.toBe(before.headers["etag"])
      expect(fresh.body.data.protocols[0].name).toBe("Model Context Protocol (renamed)")
    }))

  it.effect("reloads at once after invalidate", () =>
    Effect.gen(function*() {
      const cache = yield* ProtocolCatalogCache
      const before = yield* cache.current
      yield* renameMcp("Model Context Protocol (again)")
      expect((yield* cache.current).etag).toBe(before.etag)
      yield* cache.invalidate
      const after = yield* cache.current
      expect(after.etag).not.toBe(before.etag)
      expect(after.protocols[0]!.name).toBe("Model Context Protocol (again)")
    }).pipe(Effect.provide(ProtocolCatalogCache.Default)))
})
