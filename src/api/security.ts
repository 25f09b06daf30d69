/**
 * Security contract (spec §5): the two schemes, the principal a request runs as,
 * and the middleware tags that attach them to endpoints. The middleware is implemented
 * in `src/http/AuthMiddleware.ts` (on the credential checks of `layers/Auth.ts`).
 */
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Effect } from "effect"
import type { AdminRequired, MfaRequired, CrossSiteRequest, CsrfTokenInvalid, InsufficientScope, OriginNotAllowed, ReauthenticationRequired, SessionRequired, Unauthenticated } from "../../schema/errors.js"
import { raisedOnly } from "../../schema/problem.js"

/** The methods of session commands: they need `X-CSRF-Token` and an allowed origin (spec §5.2). */
export const commandMethods: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** Name of the session cookie set at sign-in. */
export const SessionCookieName = "session"

/** `cookieAuth`: the browser session cookie (spec §5.2). */
export const cookieAuth = HttpApiSecurity.apiKey({ in: "cookie", key: SessionCookieName }).pipe(
  HttpApiSecurity.annotate(OpenApi.Description, "Browser session cookie set by Accounts_SignIn. Commands also need X-CSRF-Token.")
)

/** `apiKeyAuth`: a scoped public API credential in `X-API-Key` (or `Authorization: Bearer`) (spec §5.3). */
export const apiKeyAuth = HttpApiSecurity.apiKey({ in: "header", key: "X-API-Key" }).pipe(
  HttpApiSecurity.annotate(OpenApi.Description, "Public API credential; `Authorization: Bearer <key>` is accepted too.")
)

/** Who the request runs as. */
export type Principal =
  | { readonly _tag: "Anonymous" }
  | {
    readonly _tag: "Session"
    readonly accountId: string
    readonly sessionId: string
    readonly isAdmin: boolean
    readonly authenticatedAt: Date
  }
  | {
    readonly _tag: "ApiKey"
    readonly apiKeyId: string
    readonly workspaceId: string
    readonly scopes: ReadonlyArray<string>
  }

/** The principal of the current request, provided by the auth middleware. */
export class CurrentPrincipal extends Context.Tag("agent-directory/CurrentPrincipal")<CurrentPrincipal, Principal>() {}

/** The session principal of the current request (session-only operations). */
export type SessionPrincipal = Extract<Principal, { _tag: "Session" }>

/**
 * The session principal, in a handler behind `SessionAuth` (which guarantees one;
 * anything else is a wiring bug and dies).
 */
export const currentSession: Effect.Effect<SessionPrincipal, never, CurrentPrincipal> = Effect.flatMap(
  CurrentPrincipal,
  (p) => p._tag === "Session" ? Effect.succeed(p) : Effect.dieMessage("session operation without a session principal")
)

/**
 * Session-authenticated operations (x-auth-mode required-user / required-admin).
 * Fails with 401 `unauthenticated` (no valid session) or 403 (`session-required`,
 * `cross-site-request`, `origin-not-allowed`, `csrf-token-invalid`, `admin-required`,
 * `mfa-required`, `reauthentication-required`); `operation()` declares those each endpoint can answer.
 */
export class SessionAuth extends HttpApiMiddleware.Tag<SessionAuth>()("SessionAuth", {
  security: { cookieAuth },
  provides: CurrentPrincipal,
  failure: raisedOnly<
    | Unauthenticated
    | SessionRequired
    | CrossSiteRequest
    | OriginNotAllowed
    | CsrfTokenInvalid
    | AdminRequired
    | MfaRequired
    | ReauthenticationRequired
  >()
}) {}

/**
 * Public and optional-user operations: anonymous, or an API key that raises the
 * budget (optional-user: or a live session cookie). A presented key must be valid
 * (401, one identical body, spec §5.3) and
 * carry the operation's scopes (403 `insufficient-scope`); an optional-user session
 * follows the session rules (403 `cross-site-request`, `origin-not-allowed`,
 * `csrf-token-invalid`, `reauthentication-required`).
 */
export class PublicAuth extends HttpApiMiddleware.Tag<PublicAuth>()("PublicAuth", {
  security: { apiKeyAuth },
  provides: CurrentPrincipal,
  failure: raisedOnly<
    | Unauthenticated
    | InsufficientScope
    | CrossSiteRequest
    | OriginNotAllowed
    | CsrfTokenInvalid
    | AdminRequired
    | MfaRequired
    | ReauthenticationRequired
  >()
}) {}
