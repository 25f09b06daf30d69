/**
 * CORS (spec §5.4), as an API-level middleware:
 *
 * 1. Public and optional-user operations answer any origin with
 *    `Access-Control-Allow-Origin: *` — never with credentials, so a browser sends
 *    no cookie cross-origin. A request carrying an API key is still refused by the
 *    auth middleware (the one 401 of spec §5.3) unless its exact `Origin` is in the
 *    key's allowlist.
 * 2. A preflight (`OPTIONS` with `Access-Control-Request-Method`) grants transport
 *    only: the public methods of the path, the headers a key-authenticated call
 *    needs, and a max-age. It looks at no credential.
 * 3. Session operations get no CORS permission at all, and
 *    `Access-Control-Allow-Credentials` is never sent (spec §5.4.4).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import type { AuthMode } from "../api/operation.js"
import { Operations, type OperationTable } from "../api/policies.js"

/** How long a browser may cache a preflight, in seconds. */
export const PreflightMaxAgeSeconds = 600

/** Request headers a cross-origin caller may send: a key-authenticated call needs no more. */
export const CorsAllowedHeaders = ["Content-Type", "Idempotency-Key", "X-API-Key", "Authorization"] as const

/** Response headers a cross-origin caller may read. */
export const CorsExposedHeaders = ["RateLimit", "RateLimit-Policy", "Retry-After", "X-Request-Id", "Idempotent-Replayed"] as const

const crossOriginModes: ReadonlySet<AuthMode> = new Set(["public", "optional-user"])

/** The methods of the public (non-session) operations at `path`, or none. */
const publicMethodsAt = (operations: OperationTable, path: string) =>
  [...operations.byRoute.values()]
    .filter((op) => crossOriginModes.has(op.policy.auth) && op.pathPattern.test(path))
    .map((op) => op.endpoint.method)

/** The CORS middleware, as an HttpApi-level middleware layer. Requires `Operations`. */
export const CorsLive = HttpApiBuilder.middleware(Effect.map(Operations, (operations) => (app: HttpApp.Default) =>
  // runs on every request: a flatMap, not Effect.gen (most requests carry no Origin and pass straight through)
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (request.headers["origin"] === undefined) return app
    const path = request.url.split("?")[0] ?? ""
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined) {
      const methods = publicMethodsAt(operations, path)
      return Effect.succeed(HttpServerResponse.empty({
        status: 204,
        headers: methods.length === 0 ? { vary: "Origin" } : {
          "access-control-allow-origin": "*",
          "access-control-allow-methods": [...new Set(methods)].join(", "),
          "access-control-allow-headers": CorsAllowedHeaders.join(", "),
          "access-control-max-age": String(PreflightMaxAgeSeconds),
          vary: "Origin"
        }
      }))
    }
    const op = operations.find(request.method, path)
    const crossOrigin = op._tag === "Some" && crossOriginModes.has(op.value.policy.auth)
    return Effect.zipRight(
      HttpApp.appendPreResponseHandler((_, response) =>
        Effect.succeed(HttpServerResponse.setHeaders(response, {
          vary: "Origin",
          ...(crossOrigin
            ? { "access-control-allow-origin": "*", "access-control-expose-headers": CorsExposedHeaders.join(", ") }
            : {})
        }))
      ),
      app
    )
  })
))
