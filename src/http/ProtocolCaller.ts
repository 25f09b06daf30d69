/**
 * The admission shared by the directory's protocol endpoints outside `HttpApi` (`/mcp`, the
 * A2A interface at `/a2a/*`): the REST rules for the credential, the browser origin and the
 * request budget, applied to a raw request.
 *
 * 1. Credential: an API key (`X-API-Key` or `Authorization: Bearer`, `apiKeyPrincipal`) or none
 *    (anonymous); a bad key is the one identical 401 problem (spec §5.3).
 * 2. Origin: a keyless request from a browser `Origin` must come from an allowed origin
 *    (`keylessOriginAllowed`), else 403 `origin-not-allowed` (DNS-rebinding defence).
 * 3. Budget: the request is charged `cost` units to the principal's budget (`budgetTarget`);
 *    the `RateLimit-Policy`/`RateLimit` headers are added to the answer, and a spent budget is
 *    429 `rate-limited` with `Retry-After`.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type Context, Effect, Option } from "effect"
import type { AppConfigShape } from "../../layers/AppConfig.js"
import type { Auth } from "../../layers/Auth.js"
import type { RateBudget } from "../../layers/RateBudget.js"
import { OriginNotAllowed } from "../../schema/errors.js"
import type { Principal } from "../api/security.js"
import { apiKeyPrincipal } from "./AuthMiddleware.js"
import { clientAddress } from "./ClientAddress.js"
import { budgetTarget, rateLimitHeaders, spentBudget } from "./RateBudgetMiddleware.js"

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

/**
 * Whether a browser `origin` may call a protocol endpoint without an API key: one of
 * `ALLOWED_ORIGINS` when set, else the public base URL's origin or a loopback origin naming the
 * request's own `host`. A DNS-rebinding page has its own origin and host, never a loopback name
 * nor an allowed origin.
 */
export const keylessOriginAllowed = (
  origin: string,
  host: string | undefined,
  config: Pick<AppConfigShape, "allowedOrigins" | "publicBaseUrl">
) => {
  if (config.allowedOrigins.length > 0) return config.allowedOrigins.includes(origin)
  try {
    const url = new URL(origin)
    if (url.origin === new URL(config.publicBaseUrl).origin) return true
    return loopbackHosts.has(url.hostname) && host !== undefined && url.host === host
  } catch {
    return false
  }
}

/**
 * Steps 1-2: the caller of `request` (an API key's principal, or anonymous). Fails with
 * `Unauthenticated` (a bad key) or `OriginNotAllowed` (`endpoint` names the endpoint in its detail).
 */
export const protocolPrincipal = (
  auth: Context.Tag.Service<typeof Auth>,
  config: AppConfigShape,
  request: HttpServerRequest.HttpServerRequest,
  endpoint: string
) =>
  Effect.gen(function*() {
    const key = yield* apiKeyPrincipal(auth, request)
    const origin = request.headers["origin"]
    if (Option.isNone(key) && origin !== undefined && !keylessOriginAllowed(origin, request.headers["host"], config)) {
      return yield* new OriginNotAllowed({ detail: `Origin ${origin} is not allowed to use ${endpoint}.` })
    }
    return Option.getOrElse(key, (): Principal => ({ _tag: "Anonymous" }))
  })

/** Step 3: charges `cost` units of `principal`'s budget for `request`. Fails with `RateLimited`. */
export const chargeProtocolRequest = (
  budgets: Context.Tag.Service<typeof RateBudget>,
  config: AppConfigShape,
  request: HttpServerRequest.HttpServerRequest,
  principal: Principal,
  cost: number
) =>
  Effect.gen(function*() {
    const charged = yield* budgets.charge({
      ...budgetTarget(config, principal, () => clientAddress(request, config.trustedProxyHops)),
      cost
    })
    if (Option.isNone(charged)) return
    const c = charged.value
    yield* HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeaders(response, rateLimitHeaders(c))))
    if (c.retryAfterSeconds !== undefined) return yield* spentBudget(c, c.retryAfterSeconds)
  })
