/**
 * The auth middleware of each auth mode (spec §5), enforcing the operation's
 * policy from the contract (the `Operations` table of `src/api/policies.ts`):
 *
 * - {@link SessionAuthLive} (required-user, required-admin): a live session cookie
 *   (else 401); on commands (POST/PUT/PATCH/DELETE) `Sec-Fetch-Site` must not be
 *   `cross-site`, `Origin` (when sent) must be allowed and `X-CSRF-Token` must match
 *   the session (else 403); admin operations need an admin account with a confirmed
 *   second factor and sensitive ones a recent authentication: a sign-in or a second
 *   factor verified (Accounts_VerifyMfa, step-up) within RECENT_AUTH_SECONDS (403, each
 *   with its own problem `type`). A half signed-in session (second factor pending) may
 *   call Accounts_VerifyMfa only: everything else answers the one identical 401.
 * - {@link PublicAuthLive} (public, optional-user): anonymous, or an API key from
 *   `X-API-Key` or `Authorization: Bearer`. A presented key must be valid and, when
 *   the request has an `Origin`, list it (else the one identical 401), and carry
 *   every required scope (else 403). On optional-user
 *   operations a session cookie, when sent, must be live and meets the session rules.
 *
 * Both also set the operation's `Cache-Control`.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { AdminRequired, CrossSiteRequest, CsrfTokenInvalid, InsufficientScope, MfaRequired, OriginNotAllowed, type ReauthenticationRequired, SessionRequired, type Unauthenticated } from "../../schema/errors.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { Auth, type SessionRecord, unauthenticated } from "../../layers/Auth.js"
import { cacheControl, type OperationPolicy } from "../api/operation.js"
import { Operations } from "../api/policies.js"
import { commandMethods, type Principal, PublicAuth, SessionAuth, SessionCookieName } from "../api/security.js"

const setCacheControl = (policy: OperationPolicy) =>
  HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(
      response.headers["cache-control"] === undefined
        ? HttpServerResponse.setHeader(response, "cache-control", cacheControl[policy.cache])
        : response
    )
  )

/**
 * The API key a request presents, if any. Supplying `X-API-Key` and a Bearer token
 * with different values, or a non-Bearer `Authorization`, is a malformed credential.
 */
const presentedApiKey = (request: HttpServerRequest.HttpServerRequest) => {
  const header = request.headers["x-api-key"]
  const authorization = request.headers["authorization"]
  const bearer = authorization === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? ""
  if (header !== undefined && bearer !== undefined && header !== bearer) return Option.some(Redacted.make(""))
  const key = header ?? bearer
  return key === undefined ? Option.none() : Option.some(Redacted.make(key))
}

/** The principal of a valid API key. */
export type ApiKeyPrincipal = Extract<Principal, { readonly _tag: "ApiKey" }>

/**
 * The API key a request presents (`X-API-Key` or `Authorization: Bearer`, spec §5.3), verified:
 * `None` when none is presented (anonymous). A presented key must be valid and, when the request
 * has an `Origin`, list that exact origin (spec §5.4.2); else the one identical 401
 * `unauthenticated` (`Unauthenticated`). Scopes are checked per operation ({@link scopeRefusal}).
 * Shared by {@link PublicAuthLive} and the MCP endpoint (src/mcpServer/McpEndpoint.ts).
 */
export const apiKeyPrincipal = (
  auth: Context.Tag.Service<typeof Auth>,
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<Option.Option<ApiKeyPrincipal>, Unauthenticated> => {
  const presented = presentedApiKey(request)
  if (Option.isNone(presented)) return Effect.succeedNone
  return Effect.flatMap(auth.apiKey(presented.value), (key) => {
    if (Option.isNone(key)) return Effect.fail(unauthenticated())
    // browser use only from an exact allowlisted origin (spec §5.4.2), else the same 401
    const origin = request.headers["origin"]
    if (origin !== undefined && !key.value.allowedOrigins.includes(origin)) return Effect.fail(unauthenticated())
    const { apiKeyId, scopes, workspaceId } = key.value
    return Effect.succeed(Option.some({ _tag: "ApiKey", apiKeyId, workspaceId, scopes } satisfies ApiKeyPrincipal))
  })
}

/** The 403 `insufficient-scope` of an API key lacking a scope `policy` requires (x-required-scopes), if it lacks one. */
export const scopeRefusal = (policy: OperationPolicy, key: ApiKeyPrincipal): InsufficientScope | undefined => {
  const missing = policy.scopes.filter((scope) => !key.scopes.includes(scope))
  return missing.length === 0 ? undefined : new InsufficientScope({
    detail: `The API key lacks the scope(s) ${missing.join(", ")} that ${policy.operationId} requires.`
  })
}

/** The browser `origin` is one we accept for session commands: listed in ALLOWED_ORIGINS, or (none listed) the request's own host. */
export const originAllowed = (origin: string, host: string | undefined, allowed: ReadonlyArray<string>) => {
  if (allowed.length > 0) return allowed.includes(origin)
  try {
    return host !== undefined && new URL(origin).host === host
  } catch {
    return false
  }
}

/** The 403 causes of the session rules. */
type SessionRuleRefusal =
  | Unauthenticated
  | CrossSiteRequest
  | OriginNotAllowed
  | CsrfTokenInvalid
  | AdminRequired
  | MfaRequired
  | ReauthenticationRequired

/** The one operation a half signed-in session (second factor pending) may call. */
export const MfaVerificationOperationId = "Accounts_VerifyMfa"

/** The request-level rules of one session (CSRF, origin, admin, recent authentication) as a layer-built checker. */
const makeSessionRules = Effect.gen(function*() {
  const auth = yield* Auth
  const config = yield* AppConfig
  /** The failure of a command's request-level checks (cross-site, origin, CSRF), if one fails. */
  const commandRefusal = (
    s: SessionRecord,
    request: HttpServerRequest.HttpServerRequest
  ): CrossSiteRequest | OriginNotAllowed | CsrfTokenInvalid | undefined => {
    if (request.headers["sec-fetch-site"] === "cross-site") {
      return new CrossSiteRequest({ detail: "Cross-site requests cannot use the session." })
    }
    const origin = request.headers["origin"]
    if (origin !== undefined && !originAllowed(origin, request.headers["host"], config.allowedOrigins)) {
      return new OriginNotAllowed({ detail: `Origin ${origin} is not allowed.` })
    }
    if (!auth.csrfMatches(s, request.headers["x-csrf-token"])) {
      return new CsrfTokenInvalid({
        detail: "Session commands need the session's X-CSRF-Token header (returned by sign-in)."
      })
    }
    return undefined
  }
  /**
   * The principal of a live session, after the rules of the operation hold.
   * Fails with a 403 cause (CSRF, origin, cross-site, admin, recent authentication).
   * Runs on every session request: plain checks and one flatMap chain, not Effect.gen.
   */
  return (
    s: SessionRecord,
    policy: OperationPolicy,
    request: HttpServerRequest.HttpServerRequest
  ): Effect.Effect<Principal, SessionRuleRefusal> => {
    if (s.mfaPending && policy.operationId !== MfaVerificationOperationId) return Effect.fail(unauthenticated())
    const refused = commandMethods.has(request.method) ? commandRefusal(s, request) : undefined
    if (refused !== undefined) return Effect.fail(refused)
    if (policy.auth === "required-admin" && !s.isAdmin) {
      return Effect.fail(new AdminRequired({ detail: "This operation needs an administrator." }))
    }
    if (policy.auth === "required-admin" && !s.mfaEnabled) {
      return Effect.fail(new MfaRequired({
        detail: "Administrator operations need a confirmed second factor: enroll TOTP (POST /api/v1/me/mfa/totp) and confirm it."
      }))
    }
    const principal: Principal = {
      _tag: "Session",
      accountId: s.accountId,
      sessionId: s.sessionId,
      isAdmin: s.isAdmin,
      authenticatedAt: s.authenticatedAt
    }
    const touched = Effect.as(auth.touch(s), principal)
    return policy.sensitive ? Effect.zipRight(auth.requireRecentAuthentication(s.authenticatedAt), touched) : touched
  }
})

/** Middleware of session-authenticated operations. */
export const SessionAuthLive = Layer.effect(
  SessionAuth,
  Effect.gen(function*() {
    const auth = yield* Auth
    const operations = yield* Operations
    const sessionRules = yield* makeSessionRules
    // no live session: a valid API key on a session-only operation is authenticated but not allowed
    const refuse = (
      policy: OperationPolicy,
      request: HttpServerRequest.HttpServerRequest
    ): Effect.Effect<never, Unauthenticated | SessionRequired> => {
      const key = presentedApiKey(request)
      if (Option.isNone(key)) return Effect.fail(unauthenticated())
      return Effect.flatMap(auth.apiKey(key.value), (valid): Effect.Effect<never, Unauthenticated | SessionRequired> =>
        Option.isSome(valid)
          ? Effect.fail(
            new SessionRequired({
              detail: `${policy.operationId} needs a browser session; API keys cannot call it.`
            })
          )
          : Effect.fail(unauthenticated()))
    }
    return {
      // runs on every session request: one context read and a flatMap chain, not Effect.gen
      cookieAuth: (token) =>
        Effect.contextWithEffect((context: Context.Context<HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest>) => {
          const { policy } = operations.of(Context.get(context, HttpRouter.RouteContext))
          const request = Context.get(context, HttpServerRequest.HttpServerRequest)
          const session: Effect.Effect<Option.Option<SessionRecord>> = Redacted.value(token) === ""
            ? Effect.succeedNone
            : auth.session(token)
          return Effect.zipRight(
            setCacheControl(policy),
            Effect.flatMap(session, (found): Effect.Effect<Principal, SessionRuleRefusal | SessionRequired> =>
              Option.isSome(found) ? sessionRules(found.value, policy, request) : refuse(policy, request))
          )
        })
    }
  })
)

/** Middleware of public and optional-user operations. */
export const PublicAuthLive = Layer.effect(
  PublicAuth,
  Effect.gen(function*() {
    const auth = yield* Auth
    const operations = yield* Operations
    const sessionRules = yield* makeSessionRules
    return {
      apiKeyAuth: () =>
        Effect.gen(function*() {
          const { policy } = yield* operations.current
          yield* setCacheControl(policy)
          const request = yield* HttpServerRequest.HttpServerRequest
          const cookie = request.cookies[SessionCookieName]
          if (policy.auth === "optional-user" && cookie !== undefined) {
            // optional-user: a session cookie, when sent, must be a live session
            const session = yield* auth.session(Redacted.make(cookie))
            if (Option.isNone(session)) return yield* unauthenticated()
            return yield* sessionRules(session.value, policy, request)
          }
          const key = yield* apiKeyPrincipal(auth, request)
          if (Option.isNone(key)) return { _tag: "Anonymous" } satisfies Principal
          const refused = scopeRefusal(policy, key.value)
          if (refused !== undefined) return yield* refused
          return key.value
        })
    }
  })
)
