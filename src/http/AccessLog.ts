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
import { Cause, Effect, Exit } from "effect"

/** One access-log line. `ms` is the time from the request to its response, in milliseconds. */
export const logAccess = (line: {
  readonly method: string
  readonly url: string
  readonly status: number
  readonly started: number
  readonly requestId: string | undefined
}): Effect.Effect<void> =>
  Effect.logInfo("http").pipe(Effect.annotateLogs({
    method: line.method,
    path: line.url.split("?")[0],
    status: line.status,
    ms: Math.round((performance.now() - line.started) * 10) / 10,
    requestId: line.requestId
  }))

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
