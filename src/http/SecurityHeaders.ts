/**
 * Headers every response carries, whatever answers it (an operation, a problem, `/docs`,
 * `/openapi.json`, `/`): `X-Content-Type-Options: nosniff`, so a browser never runs a
 * JSON or problem body it was tricked into loading as a script or style (the type the
 * server states is the type). Set by a pre-response handler, which also sees the
 * responses made from a failure; the edge cache's answers, which bypass the pipeline,
 * get them from `src/http/EdgeServer.ts` ({@link setOnNodeResponse}).
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Layer, Option } from "effect"
import type { ServerResponse } from "node:http"

/** The headers of every response (lower-case names). */
export const SecurityHeaders: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff"
}

/** The pre-response handler setting {@link SecurityHeaders}. */
const setSecurityHeaders: HttpApp.PreResponseHandler = (_, response) =>
  Effect.succeed(HttpServerResponse.setHeaders(response, SecurityHeaders))

/**
 * `layer` (one that serves an app, e.g. `HttpApiBuilder.serve`) with {@link SecurityHeaders} on
 * every response, failures' included: the pre-response handler is the first of the chain each
 * request fiber inherits from the server's runtime (`HttpApp.currentPreResponseHandlers`), so
 * no request registers it again; handlers a request appends run after it.
 */
export const withSecurityHeaders = <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.locallyWith(layer, HttpApp.currentPreResponseHandlers, (handlers) =>
    Option.some(Option.match(handlers, {
      onNone: () => setSecurityHeaders,
      onSome: (before): HttpApp.PreResponseHandler => (request, response) =>
        Effect.flatMap(before(request, response), (response) => setSecurityHeaders(request, response))
    })))

/** Sets {@link SecurityHeaders} on a Node response before anything writes its head. */
export const setOnNodeResponse = (res: ServerResponse): void => {
  for (const [name, value] of Object.entries(SecurityHeaders)) res.setHeader(name, value)
}
