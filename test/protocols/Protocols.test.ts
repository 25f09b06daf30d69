import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Data } from "../../schema/envelope.js"
import { ProtocolCatalog } from "../../schema/protocols.js"
import { call, expectMeta, expectProblem } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoProtocols } from "../../demo/protocols/seed.js"

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

  it.effect("answers with a body that validates against the contract schema", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/api/v1/protocols")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^application\/json/)
      const decoded = Schema.decodeUnknownSync(Data(ProtocolCatalog), { onExcessProperty: "error" })(reply.body)
      expect(decoded.data.protocols.map((p) => p.key)).toEqual(DemoProtocols.map((p) => p.key))
      expect(decoded.meta.generatedAt).toEqual(TestEpoch)
      expect(decoded.meta.requestId).toBe(reply.headers["x-request-id"])
      // every item has exactly the four catalog keys, features are non-empty strings
      for (const item of reply.body.data.protocols) {
        expect(Object.keys(item).sort()).toEqual(["features", "key", "name", "status"])
        for (const feature of item.features) expect(feature.length).toBeGreaterThan(0)
      }
      expect(Object.keys(reply.body).sort()).toEqual(["data", "meta"])
      expect(Object.keys(reply.body.data)).toEqual(["protocols"])
    }))

  it.effect("rejects an invalid API key with 401 and a key lacking public:read with 403", () =>
    Effect.gen(function*() {
      const revoked = yield* call("GET", "/api/v1/protocols", { headers: { "x-api-key": DemoApiKeys.revoked.key } })
      expectProblem(revoked, 401, "unauthenticated")
      const agentsOnly = yield* call("GET", "/api/v1/protocols", { headers: { "x-api-key": DemoApiKeys.agentsOnly.key } })
      expectProblem(agentsOnly, 403, "insufficient-scope")
    }))
})
