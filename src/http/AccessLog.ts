/**
 * The access log: ONE log event per request, after the response, at `Info`:
 * message `http`, annotations `method`, `path` (no query string: it may carry
 * cursors), `status`, `ms` (time to the response, milliseconds) and `requestId`
 * (the `X-Request-Id` the request middleware set). Replaces platform's
 * `HttpMiddleware.logger` (a log span and annotations per request, rendered by the
 * pretty logger as four lines). The edge cache (EdgeCache.ts) logs its answers
 * through {@link logAccess} too, so every request has the same line.
 */
import { HttpMiddleware, HttpServerRequest } from "@effect/platform"
import { Cause, Effect, Exit, FiberRef, HashMap } from "effect"

/**
 * One access-log line. `ms` is the time from the request to its response, in milliseconds.
 * The annotations are set and restored around the one log call rather than with
 * `Effect.annotateLogs` (a scoped FiberRef: ~15 more runtime operations on every request).
 */
export const logAccess = (line: {
  readonly method: string
  readonly url: string
  readonly status: number
  readonly started: number
  readonly requestId: string | undefined
}): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(FiberRef.currentLogAnnotations), (before) => {
    let annotations = HashMap.set(before, "method", line.method as unknown)
    annotations = HashMap.set(annotations, "path", line.url.split("?")[0])
    annotations = HashMap.set(annotations, "status", line.status)
    annotations = HashMap.set(annotations, "ms", Math.round((performance.now() - line.started) * 10) / 10)
    annotations = HashMap.set(annotations, "requestId", line.requestId)
    return FiberRef.set(FiberRef.currentLogAnnotations, annotations).pipe(
      Effect.zipRight(Effect.logInfo("http")),
      // logging cannot fail, and callers run this uninterruptibly (onExit) or last in their fiber
      Effect.zipRight(FiberRef.set(FiberRef.currentLogAnnotations, before))
    )
  })

/** Status logged for a request whose handling failed outside the problem renderer. */
const statusOf = (exit: Exit.Exit<{ readonly status: number }, unknown>) =>
  Exit.isSuccess(exit) ? exit.value.status : Cause.isInterruptedOnly(exit.cause) ? 499 : 500

/** Middleware writing the access log line of each request. */
export const accessLog = HttpMiddleware.make((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const started = performance.now()
    return Effect.onExit(app, (exit) =>
      logAccess({
        method: request.method,
        url: request.url,
        status: statusOf(exit),
        started,
        requestId: Exit.isSuccess(exit) ? exit.value.headers["x-request-id"] : undefined
      }))
  })
)
