/**
 * The service's `HttpServer` on `node:http`: platform-node's request handler
 * (`NodeHttpServer.makeHandler`) behind the {@link EdgeCache} listener, so that a
 * cached `public-catalog` answer costs no Effect pipeline (EdgeCache.ts). Otherwise
 * the same as `NodeHttpServer.layer`: listens on start (a busy port fails with
 * `ServeError`), closes on scope end, provides the platform services. No WebSocket
 * upgrades (the API has none).
 *
 * The port listens as soon as the layer is built, while the rest of the application (the
 * database, migrations, the areas) may still be building; `serve` attaches the handler only
 * then. A request that arrives in between is held (in arrival order) and handed to the
 * handler once `serve` attaches it, rather than left on an open connection with no
 * `request` listener, where it would never be answered. Requests still held when the scope
 * closes without a `serve` are answered 503.
 */
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { ListenOptions } from "node:net"
import { EdgeCache } from "./EdgeCache.js"
import { setOnNodeResponse } from "./SecurityHeaders.js"

const make = (evaluate: () => Server, options: ListenOptions) =>
  Effect.gen(function*() {
    const edge = yield* EdgeCache
    // requests that arrive before `serve` attaches the handler (see the module docs)
    let held: Array<readonly [IncomingMessage, ServerResponse]> = []
    const hold = (req: IncomingMessage, res: ServerResponse) => {
      held.push([req, res])
    }
    const server = yield* Effect.acquireRelease(
      Effect.sync(() => evaluate().on("request", hold)),
      (server) =>
        Effect.async<void>((resume) => {
          server.off("request", hold)
          for (const [, res] of held.splice(0)) {
            if (!res.headersSent) res.writeHead(503, { "retry-after": "1", connection: "close" })
            res.end()
          }
          if (!server.listening) return resume(Effect.void)
          server.close(() => resume(Effect.void))
        })
    )
    yield* Effect.async<void, HttpServerError.ServeError>((resume) => {
      const onError = (cause: unknown) => resume(Effect.fail(new HttpServerError.ServeError({ cause })))
      server.on("error", onError)
      server.listen(options, () => {
        server.off("error", onError)
        resume(Effect.void)
      })
    })
    const address = server.address()
    return HttpServer.make({
      address: typeof address === "string" || address === null
        ? { _tag: "UnixAddress", path: String(address) }
        : { _tag: "TcpAddress", hostname: address.address === "::" ? "0.0.0.0" : address.address, port: address.port },
      serve: (app, middleware) =>
        Effect.gen(function*() {
          const handler = yield* (middleware === undefined
            ? NodeHttpServer.makeHandler(app)
            : NodeHttpServer.makeHandler(app, middleware))
          const cached = edge.listener(handler)
          // the edge cache answers without the pipeline: the security headers are set here for every answer
          const listener = (req: IncomingMessage, res: ServerResponse) => {
            setOnNodeResponse(res)
            cached(req, res)
          }
          yield* Effect.addFinalizer(() => Effect.sync(() => server.off("request", listener)))
          server.off("request", hold)
          server.on("request", listener)
          const waiting = held
          held = []
          for (const [req, res] of waiting) listener(req, res)
        })
    })
  })

/** The edge-cached `HttpServer` listening with `options`, and the platform services. Requires {@link EdgeCache}. */
export const layer = (options: ListenOptions, evaluate: () => Server = () => createServer()) =>
  Layer.mergeAll(Layer.scoped(HttpServer.HttpServer, make(evaluate, options)), NodeHttpServer.layerContext)
