/**
 * The access log: ONE log event per request, after the response, at `Info`:
 * message `http`, annotations `method`, `path` (no query string: it may carry
 * cursors), `status`, `ms` (time to the response, milliseconds) and `requestId`
 * (the `X-Request-Id` the request middleware set). Replaces platform's
 * `HttpMiddleware.logger` (a log span and annotations per request, rendered by the
 * pretty logger as four lines). The edge cache (EdgeCache.ts) logs its answers
 * through {@link accessWriter} too, so every request has the same line.
 *
 * Events go to the {@link AccessLog} writer when one is provided (the server's
 * `LoggingLive`: written synchronously, no fiber), else through the fiber's Effect logger.
 */
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Cause, Effect, Exit, FiberRef, HashMap, Option } from "effect"
import { type AccessEvent, AccessLog } from "../../layers/Logging.js"

/** What a request tells the access log: its path and start come from the request. */
export interface AccessRequest {
  readonly method: string
  readonly url: string
  readonly status: number
  /** `performance.now()` when the request arrived. */
  readonly started: number
  readonly requestId: string | undefined
}

const eventOf = (r: AccessRequest): AccessEvent => ({
  method: r.method,
  path: r.url.split("?")[0]!,
  status: r.status,
  ms: Math.round((performance.now() - r.started) * 10) / 10,
  requestId: r.requestId
})

/**
 * The event through the fiber's logger. The annotations are set and restored around the
 * one log call rather than with `Effect.annotateLogs` (a scoped FiberRef).
 */
const viaFiberLogger = (e: AccessEvent): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(FiberRef.currentLogAnnotations), (before) => {
    let annotations = HashMap.set(before, "method", e.method as unknown)
    annotations = HashMap.set(annotations, "path", e.path)
    annotations = HashMap.set(annotations, "status", e.status)
    annotations = HashMap.set(annotations, "ms", e.ms)
    annotations = HashMap.set(annotations, "requestId", e.requestId)
    return FiberRef.set(FiberRef.currentLogAnnotations, annotations).pipe(
      Effect.zipRight(Effect.logInfo("http")),
      // logging cannot fail, and callers run this uninterruptibly (onExit) or last in their fiber
      Effect.zipRight(FiberRef.set(FiberRef.currentLogAnnotations, before))
    )
  })

/**
 * The access log of the current context: a function logging one request's line, as an
 * effect to run in the request's fiber (or forked, where there is none).
 */
export const accessWriter: Effect.Effect<(r: AccessRequest) => Effect.Effect<void>> = Effect.map(
  AccessLog,
  ({ write }) => write === undefined ? (r) => viaFiberLogger(eventOf(r)) : (r) => Effect.sync(() => write(eventOf(r)))
)

/**
 * The status of a request's exit. A failure the platform answered itself (an interruption: an
 * empty 499 for the client's abort, 503 otherwise) carries the response it sent as a defect
 * beside the cause: its status is the one logged; any other failure is a 500.
 */
const statusOf = (exit: Exit.Exit<{ readonly status: number }, unknown>) =>
  Exit.isSuccess(exit) ? exit.value.status : Option.getOrElse(
    Cause.find(exit.cause, (c) =>
      Cause.isDieType(c) && HttpServerResponse.isServerResponse(c.defect) ? Option.some(c.defect.status) : Option.none()),
    () => Cause.isInterruptedOnly(exit.cause) ? 499 : 500
  )

/**
 * Middleware writing the access log line of each request through `log` (see {@link accessWriter}).
 * Platform runs the middleware of a served app uninterruptibly (`HttpApp.toHandled`), so the
 * line is written on every exit without `Effect.onExit`'s own uninterruptible region.
 */
export const accessLog = (log: (r: AccessRequest) => Effect.Effect<void>) =>
  HttpMiddleware.make((app) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const started = performance.now()
      const line = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>) =>
        log({
          method: request.method,
          url: request.url,
          status: statusOf(exit),
          started,
          requestId: Exit.isSuccess(exit) ? exit.value.headers["x-request-id"] : undefined
        })
      return Effect.matchCauseEffect(app, {
        onFailure: (cause) => Effect.zipRight(line(Exit.failCause(cause)), Effect.failCause(cause)),
        onSuccess: (response) => Effect.as(line(Exit.succeed(response)), response)
      })
    })
  )
