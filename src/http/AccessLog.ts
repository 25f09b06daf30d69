/**
 * The access log: ONE log event per request, after the response, at `Info`:
 * message `http`, annotations `method`, `path` (no query string: it may carry
 * cursors), `status`, `ms` (time to the response, milliseconds) and `requestId`
 * (the `X-Request-Id` the request middleware set). Replaces platform's
 * `HttpMiddleware.logger` (a log span and annotations per request, rendered by the
 * pretty logger as four lines).
 */
import { HttpMiddleware, HttpServerRequest } from "@effect/platform"
import { Cause, Effect, Exit } from "effect"

/** Status logged for a request whose handling failed outside the problem renderer. */
const statusOf = (exit: Exit.Exit<{ readonly status: number }, unknown>) =>
  Exit.isSuccess(exit) ? exit.value.status : Cause.isInterruptedOnly(exit.cause) ? 499 : 500

/** Middleware writing the access log line of each request. */
export const accessLog = HttpMiddleware.make((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const started = performance.now()
    return Effect.onExit(app, (exit) =>
      Effect.logInfo("http").pipe(Effect.annotateLogs({
        method: request.method,
        path: request.url.split("?")[0],
        status: statusOf(exit),
        ms: Math.round((performance.now() - started) * 10) / 10,
        requestId: Exit.isSuccess(exit) ? exit.value.headers["x-request-id"] : undefined
      })))
  })
)
