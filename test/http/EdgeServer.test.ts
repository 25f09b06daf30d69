/**
 * The server `npm start` runs (src/http/EdgeServer.ts) listens as soon as its layer is built, before
 * the application attaches its handler with `serve`: a request that arrives in that gap is held and
 * answered by the handler once attached (it used to stay on its connection unanswered for ever), and
 * answered 503 when the server closes without ever serving.
 */
import { describe, expect, it } from "@effect/vitest"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Exit, Layer, Scope } from "effect"
import { createServer, request as httpRequest, type Server } from "node:http"
import * as EdgeServer from "../../src/http/EdgeServer.js"
import { EdgeCacheLive } from "../../src/server.js"
import { IdsLive } from "../../layers/Ids.js"
import { TestConfigLayer } from "../support/config.js"

interface Answer {
  readonly status: number
  readonly body: string
}

/** One request on its own connection; resolves with its answer. */
const send = (port: number, path: string) =>
  new Promise<Answer>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "GET", agent: false }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

/** The edge server on a free port of 127.0.0.1 built in `scope`, with its node server and port. */
const build = (scope: Scope.CloseableScope) =>
  Effect.gen(function*() {
    let node: Server | undefined
    const layer = EdgeServer.layer({ port: 0, host: "127.0.0.1" }, () => (node = createServer())).pipe(
      Layer.provide(EdgeCacheLive),
      Layer.provide(IdsLive),
      Layer.provide(TestConfigLayer)
    )
    const context = yield* Layer.buildWithScope(layer, scope)
    const server = yield* Effect.provide(HttpServer.HttpServer, context)
    const address = server.address
    if (address._tag !== "TcpAddress") return yield* Effect.dieMessage("not a TCP address")
    /** Resolves once the node server has seen `n` requests (whether or not anything handles them). */
    const arrived = (n: number) =>
      new Promise<void>((resolve) => {
        let seen = 0
        node!.on("request", () => {
          seen += 1
          if (seen === n) resolve()
        })
      })
    return { server, port: address.port, arrived }
  })

const app = Effect.map(HttpServerRequest.HttpServerRequest, (request) => HttpServerResponse.text(`served ${request.url}`))

describe("the edge server's start", () => {
  it.effect("answers, in order, the requests that arrived before the handler was attached", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const { server, port, arrived } = yield* build(scope)
      const seen = arrived(2)
      const first = send(port, "/early/1")
      const second = send(port, "/early/2")
      yield* Effect.promise(() => seen)
      yield* Scope.extend(server.serve(app), scope)
      const answers = yield* Effect.promise(() => Promise.all([first, second]))
      expect(answers).toEqual([{ status: 200, body: "served /early/1" }, { status: 200, body: "served /early/2" }])
      // and a request after the handler is attached goes straight to it
      expect(yield* Effect.promise(() => send(port, "/later"))).toEqual({ status: 200, body: "served /later" })
      yield* Scope.close(scope, Exit.void)
    }))

  it.effect("answers 503 to a held request when the server closes without serving", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const { port, arrived } = yield* build(scope)
      const seen = arrived(1)
      const pending = send(port, "/early")
      yield* Effect.promise(() => seen)
      yield* Scope.close(scope, Exit.void)
      expect((yield* Effect.promise(() => pending)).status).toBe(503)
    }))
})
