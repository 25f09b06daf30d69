/**
 * Error rendering and request ids (spec §7, src/http/RequestMiddleware.ts): every
 * response carries an `X-Request-Id`, every failure is an RFC 9457 problem, and an
 * unexpected failure reveals nothing internal.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { ProblemDocument } from "../../schema/problem.js"
import { CatalogTtlMillis } from "../../src/protocols/CatalogCache.js"
import { call, expectProblem, type Reply, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"

const isUuid = Schema.is(Uuid)
const decodeProblem = Schema.decodeUnknownSync(ProblemDocument, { onExcessProperty: "error" })
const problemKeys = ["detail", "instance", "requestId", "status", "title", "type"]

/** The response's request id: present, a uuid, and echoed in the body. */
const requestIdOf = (reply: Reply) => {
  const id = reply.headers["x-request-id"]
  expect(id, reply.text).toBeDefined()
  expect(isUuid(id)).toBe(true)
  const echoed = reply.status < 400 ? reply.body?.meta?.requestId : reply.body?.requestId
  expect(echoed).toBe(id)
  return id!
}

layer(makeTestServer().layer)("Problem rendering", (it) => {
  it.effect("answers an unknown path with a 404 no-such-operation problem", () =>
    Effect.gen(function*() {
      for (const path of ["/api/v1/nope", "/api/v2/protocols", "/nope", "/api/v1/protocols/extra"]) {
        const reply = yield* call("GET", path)
        expectProblem(reply, 404, "no-such-operation")
        expect(reply.body.requestId).toBe(reply.headers["x-request-id"])
        expect(isUuid(reply.headers["x-request-id"])).toBe(true)
        expect(reply.body.instance).toBe(path)
        expect(reply.body.title).toBe("Not Found")
        expect(Object.keys(reply.body).sort()).toEqual(problemKeys)
        expect(() => decodeProblem(reply.body)).not.toThrow()
      }
    }))

  it.effect("answers a known path with an unrouted method as a problem too", () =>
    Effect.gen(function*() {
      const reply = yield* call("DELETE", "/api/v1/protocols")
      expectProblem(reply, 404, "no-such-operation")
      expect(reply.body.instance).toBe("/api/v1/protocols")
    }))

  it.effect("omits the query string from instance", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/api/v1/nope?secret=value")
      expectProblem(reply, 404, "no-such-operation")
      expect(reply.body.instance).toBe("/api/v1/nope")
      expect(reply.text).not.toContain("secret=value")
    }))

  it.effect("gives every response, success or error, its own X-Request-Id uuid", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const replies = [
        yield* call("GET", "/api/v1/protocols"),
        yield* call("GET", "/api/v1/protocols"),
        yield* call("GET", "/api/v1/agents/favorites", { session: owner }),
        yield* call("GET", "/api/v1/orders", { session: owner }),
        yield* call("GET", `/api/v1/workspaces/${DemoWorkspaces.acme.id}`, { session: owner }),
        yield* call("GET", "/api/v1/orders"),
        yield* call("GET", "/api/v1/agents/favorites?limit=0", { session: owner }),
        yield* call("GET", `/api/v1/workspaces/${DemoWorkspaces.locked.id}`, { session: owner }),
        yield* call("GET", "/api/v1/unknown")
      ]
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 401, 400, 423, 404])
      const ids = replies.map(requestIdOf)
      expect(new Set(ids).size).toBe(ids.length)
    }))

  it.effect("renders validation failures as 400 problems with JSON pointers", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", "/api/v1/agents/favorites?limit=101", { session: owner })
      expectProblem(reply, 400, "invalid-request")
      expect(reply.headers["cache-control"]).toBe("no-store")
      const doc = decodeProblem(reply.body)
      expect(doc.errors).toBeDefined()
      expect(doc.errors![0]).toMatchObject({ in: "query", pointer: "/limit" })
      expect(typeof doc.errors![0]!.detail).toBe("string")
    }))
})

const failing = makeTestServer()

layer(failing.layer)("Problem rendering of unexpected failures", (it) => {
  it.effect("answers a database failure with a 500 problem that reveals nothing internal", () =>
    Effect.gen(function*() {
      const before = yield* call("GET", "/api/v1/protocols")
      expect(before.status).toBe(200)
      const sql = yield* SqlClient.SqlClient
      yield* sql`DROP TABLE protocols CASCADE`.pipe(Effect.orDie)
      failing.clock.advance(CatalogTtlMillis) // past the public-catalog cache: the next request reads the database

      const reply = yield* call("GET", "/api/v1/protocols")
      expectProblem(reply, 500, "internal-error")
      expect(reply.body.title).toBe("Internal Server Error")
      expect(reply.body.instance).toBe("/api/v1/protocols")
      expect(Object.keys(reply.body).sort()).toEqual(problemKeys)
      expect(() => decodeProblem(reply.body)).not.toThrow()
      expect(requestIdOf(reply)).not.toBe(before.headers["x-request-id"])
      // the table name appears nowhere but in the echoed request path
      const withoutInstance = reply.text.replace(`"instance":"/api/v1/protocols"`, "")
      expect(withoutInstance).not.toMatch(/protocol/i)
      for (const leak of [/relation/i, /does not exist/i, /SqlError/, /SELECT|FROM|ORDER BY/, /42P01/, /\bat\s+\S+\s+\(/, /node_modules/, /\.ts:\d+/]) {
        expect(reply.text).not.toMatch(leak)
      }
      for (const [name, value] of Object.entries(reply.headers)) {
        expect(`${name}: ${value}`).not.toMatch(/relation|does not exist|SqlError/i)
      }

      // the failure is not sticky: other operations still answer
      const other = yield* call("GET", "/api/v1/nope")
      expectProblem(other, 404, "no-such-operation")
    }))
})
