/**
 * Headers every response carries, whatever answers it (an operation, a problem, `/docs`,
 * `/openapi.json`, `/`): `X-Content-Type-Options: nosniff`, so a browser never runs a
 * JSON or problem body it was tricked into loading as a script or style (the type the
 * server states is the type). Set by a pre-response handler, which also sees the
 * responses made from a failure; the edge cache's answers, which bypass the pipeline,
 * get them from `src/http/EdgeServer.ts` ({@link setOnNodeResponse}).
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import type { ServerResponse } from "node:http"

/** The headers of every response (lower-case names). */
export const SecurityHeaders: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff"
}

/** Middleware adding {@link SecurityHeaders} to every response of `app`, failures' included. */
export const securityHeaders = HttpMiddleware.make((app) =>
  Effect.zipRight(
    HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeaders(response, SecurityHeaders))),
    app
  )
)

/** Sets {@link SecurityHeaders} on a Node response before anything writes its head. */
export const setOnNodeResponse = (res: ServerResponse): void => {
  for (const [name, value] of Object.entries(SecurityHeaders)) res.setHeader(name, value)
}
