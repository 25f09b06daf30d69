/**
 * The edge cache of `public-catalog` responses (src/http/EdgeCache.ts) on the
 * server `npm start` runs (src/http/EdgeServer.ts): a repeated anonymous read is
 * answered from the Node listener with the pipeline's bytes, fresh per-request
 * parts, the same budget and the same 304; everything else goes through the
 * pipeline. Correctness only, no timing (the speed is measured by `npm run bench:http`).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { EdgeCache, EdgeTtlMillis } from "../../src/http/EdgeCache.js"
import { ProtocolCatalogCache } from "../../src/protocols/CatalogCache.js"
import { call, type Reply } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"

const Path = "/api/v1/protocols"
const server = makeTestServer({}, { edge: true })

/** Headers made fresh per request, or added by the transport. */
const perRequest = new Set(["x-request-id", "ratelimit", "date", "connection", "keep-alive"])
const stableHeaders = (r: Reply) => Object.fromEntries(Object.entries(r.headers).filter(([k]) => !perRequest.has(k)))
/** The body without `meta.requestId` / `meta.generatedAt`. */
const stableBody = (r: Reply) => r.text.replace(/"requestId":"[^"]*"/, "").replace(/"generatedAt":"[^"]*"/, "")
const remaining = (r: Reply) => Number(/;r=(\d+)/.exec(r.headers["ratelimit"] ?? "")?.[1])

const hits = Effect.flatMap(EdgeCache, (edge) => edge.hits)

/** Sends `f` and returns its reply with whether the edge answered it. */
const viaEdge = <A extends Reply>(f: Effect.Effect<A, never, any>) =>
  Effect.gen(function*() {
    const before = yield* hits
    const reply = yield* f
    return { reply, edge: (yield* hits) > before }
  })

layer(server.layer)("the edge cache of public-catalog responses", (it) => {
  it.effect("answers a repeated anonymous read from the edge: same bytes, fresh requestId, generatedAt and budget", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(EdgeCache, (edge) => edge.invalidate)
      const first = yield* viaEdge(call("GET", Path))
      expect(first.edge).toBe(false)
      const second = yield* viaEdge(call("GET", Path))
      expect(second.edge).toBe(true)
      const [a, b] = [first.reply, second.reply]
      expect(b.status).toBe(200)
      expect(stableHeaders(b)).toEqual(stableHeaders(a))
      expect(stableBody(b)).toBe(stableBody(a))
      expect(b.text.length).toBe(a.text.length)
      expect(b.body.meta.requestId).toBe(b.headers["x-request-id"])
      expect(b.body.meta.requestId).not.toBe(a.body.meta.requestId)
      // one anonymous budget, charged by both paths (the clock stands still: no unit is freed in between)
      expect(remaining(b)).toBe(remaining(a) - 1)
      expect(b.headers["ratelimit-policy"]).toBe(a.headers["ratelimit-policy"])
      server.clock.advance(1_000)
      const third = yield* viaEdge(call("GET", Path))
      expect(third.edge).toBe(true)
      expect(Date.parse(third.reply.body.meta.generatedAt) - Date.parse(b.body.meta.generatedAt)).toBe(1_000)
    }))

  it.effect("answers If-None-Match with the pipeline's 304", () =>
    Effect.gen(function*() {
      yield* Effect.flatMap(EdgeCache, (edge) => edge.invalidate)
      const etag = (yield* call("GET", Path)).headers["etag"]!
      yield* Effect.flatMap(EdgeCache, (edge) => edge.invalidate)
      const fromPipeline = yield* viaEdge(call("GET", Path, { headers: { "if-none-match": etag } }))
      expect(fromPipeline).toMatchObject({ edge: false, reply: { status: 304 } })
      yield* call("GET", Path) // refills
      const fromEdge = yield* viaEdge(call("GET", Path, { headers: { "if-none-match": `"other", ${etag}` } }))
      expect(fromEdge).toMatchObject({ edge: true, reply: { status: 304, text: "" } })
      expect(stableHeaders(fromEdge.reply)).toEqual(stableHeaders(fromPipeline.reply))
      const changed = yield* viaEdge(call("GET", Path, { headers: { "if-none-match": `"other"` } }))
      expect(changed).toMatchObject({ edge: true, reply: { status: 200 } })
    }))

  it.effect("keeps a separate entry for cross-origin reads, with the pipeline's CORS headers", () =>
    Effect.gen(function*() {
      const headers = { origin: "https://somewhere.example" }
      const first = yield* viaEdge(call("GET", Path, { headers }))
      const second = yield* viaEdge(call("GET", Path, { headers }))
      expect(second.edge).toBe(true)
      expect(second.reply.headers["access-control-allow-origin"]).toBe("*")
      expect(stableHeaders(second.reply)).toEqual(stableHeaders(first.reply))
      const sameOrigin = yield* call("GET", Path)
      expect(sameOrigin.headers["access-control-allow-origin"]).toBeUndefined()
    }))

  it.effect("sends credentials, other URLs and other operations through the pipeline", () =>
    Effect.gen(function*() {
      yield* call("GET", Path)
      for (const headers of [{ "x-api-key": DemoApiKeys.public.key }, { authorization: `Bearer ${DemoApiKeys.revoked.key}` }]) {
        const keyed = yield* viaEdge(call("GET", Path, { headers }))
        expect(keyed.edge).toBe(false)
      }
      // a revoked key still gets the pipeline's 401, never the cached catalog
      const revoked = yield* call("GET", Path, { headers: { "x-api-key": DemoApiKeys.revoked.key } })
      expect(revoked.status).toBe(401)
      const withQuery = yield* viaEdge(call("GET", `${Path}?x=1`))
      expect(withQuery.edge).toBe(false)
      yield* call("GET", "/api/v1/agents")
      const agents = yield* viaEdge(call("GET", "/api/v1/agents"))
      expect(agents.edge).toBe(false)
    }))

  it.effect("expires after EdgeTtlMillis and drops everything when the catalog is invalidated", () =>
    Effect.gen(function*() {
      yield* call("GET", Path)
      expect((yield* viaEdge(call("GET", Path))).edge).toBe(true)
      server.clock.advance(EdgeTtlMillis)
      expect((yield* viaEdge(call("GET", Path))).edge).toBe(false)
      expect((yield* viaEdge(call("GET", Path))).edge).toBe(true)

      // (a catalog of its own, sharing the server's edge: the catalog's reload is tested in CatalogCache.test.ts)
      yield* Effect.flatMap(ProtocolCatalogCache, (catalog) => catalog.invalidate).pipe(Effect.provide(ProtocolCatalogCache.Default))
      expect((yield* viaEdge(call("GET", Path))).edge).toBe(false)
      expect((yield* viaEdge(call("GET", Path))).edge).toBe(true)
    }))
})
