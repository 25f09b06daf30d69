import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoApiKeys, DemoProtocols } from "../../src/db/demo.js"
import { call, expectMeta } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"

const server = makeTestServer()

layer(server.layer)("Protocols_GetProtocolCatalog", (it) => {
  it.effect("serves the catalog anonymously with the public-catalog cache policy", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/api/v1/protocols")
      expect(reply.status).toBe(200)
      expect(reply.headers["cache-control"]).toBe("public, max-age=300, stale-while-revalidate=60")
      expect(reply.body.data.protocols).toEqual(DemoProtocols.map((p) => ({ ...p, features: [...p.features] })))
      expectMeta(reply)
      expect(reply.body.meta.generatedAt).toBe(TestEpoch.toISOString())
    }))

  it.effect("accepts the public API key in X-API-Key or as a Bearer token", () =>
    Effect.gen(function*() {
      const viaHeader = yield* call("GET", "/api/v1/protocols", { headers: { "x-api-key": DemoApiKeys.public.key } })
      const viaBearer = yield* call("GET", "/api/v1/protocols", { headers: { authorization: `Bearer ${DemoApiKeys.public.key}` } })
      expect(viaHeader.status).toBe(200)
      expect(viaBearer.status).toBe(200)
      expect(viaBearer.body.data).toEqual(viaHeader.body.data)
    }))
})
