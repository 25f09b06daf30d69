/** Domain rules of the Accounts area: sign-in and session revocation (spec §5.2). */
import { Effect, Option, Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { OriginNotAllowed } from "../../schema/errors.js"
import { SessionNotFound, SignInThrottled } from "./Errors.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { Audit } from "../../layers/Audit.js"
import { Auth } from "../../layers/Auth.js"
import { now } from "../../layers/Clock.js"
import { RateBudget } from "../../layers/RateBudget.js"
import { originAllowed } from "../http/AuthMiddleware.js"
import { AccountsRepo } from "./Repo.js"

const isUuid = Schema.is(Uuid)

/** Accounts: sign-in and sessions. Requires `SqlClient`, `Auth`, `AppConfig`. */
export class Accounts extends Effect.Service<Accounts>()("agent-directory/Accounts", {
  effect: Effect.gen(function*() {
    const repo = yield* AccountsRepo
    const auth = yield* Auth
    const audit = yield* Audit
    const config = yield* AppConfig
    const budgets = yield* RateBudget

    /**
     * Sign-in throttling: every attempt is charged to its account (the email as
     * typed, lowercased — whether or not such an account exists, so the throttle
     * reveals nothing) and to its client address. Fails with `RateLimited` when
     * either is spent.
     */
    const throttleSignIn = (email: string, address: string) =>
      Effect.gen(function*() {
        const charges = yield* Effect.all([
          budgets.charge({ name: "sign-in-account", subject: email.toLowerCase(), budget: config.budgets.signInAccount, cost: 1 }),
          budgets.charge({ name: "sign-in-address", subject: address, budget: config.budgets.signInAddress, cost: 1 })
        ])
        const waits = charges.flatMap((c) => Option.isSome(c) && c.value.retryAfterSeconds !== undefined ? [c.value.retryAfterSeconds] : [])
        if (waits.length > 0) {
          return yield* new SignInThrottled({
            detail: "Too many sign-in attempts; retry later.",
            retryAfter: Math.max(...waits)
          })
        }
      })

    /**
     * Accounts_SignIn: checks the password and opens a session. A browser `Origin`
     * must be allowed (login CSRF). Fails with `Unauthenticated` (wrong email or
     * password: one identical 401), `Forbidden` (foreign origin) or
     * `RateLimited` (throttled, see throttleSignIn).
     */
    const signIn = (input: {
      readonly email: string
      readonly password: string
      readonly origin: string | undefined
      readonly host: string | undefined
      readonly userAgent: string | null
      readonly clientAddress: string
    }) =>
      Effect.gen(function*() {
        yield* throttleSignIn(input.email, input.clientAddress)
        if (input.origin !== undefined && !originAllowed(input.origin, input.host, config.allowedOrigins)) {
          return yield* new OriginNotAllowed({ detail: `Origin ${input.origin} is not allowed.` })
        }
        return yield* auth.signIn(input)
      })

    /** Accounts_ListSessions: the caller's live sessions, newest first. */
    const sessions = (accountId: string, currentSessionId: string) =>
      Effect.flatMap(now, (at) => repo.live(accountId, currentSessionId, at))

    /**
     * Accounts_RevokeSession: revokes one of the caller's own sessions. Revoking
     * the current session is signing out and never needs recent authentication;
     * revoking another one is sensitive (spec §5.2: a stolen session must not sign
     * the owner out everywhere). `{revoked: 0}` when it was already revoked. Fails
     * with `NotFound` (not the caller's session) or `Forbidden`
     * `reauthentication-required` (another session, sign-in too old).
     */
    const revoke = (sessionId: string, caller: { readonly accountId: string; readonly sessionId: string; readonly authenticatedAt: Date }) =>
      Effect.gen(function*() {
        const id = sessionId.toLowerCase()
        if (id !== caller.sessionId) yield* auth.requireRecentAuthentication(caller.authenticatedAt)
        const accountId = caller.accountId
        if (!isUuid(id) || Option.isNone(yield* repo.owned(id, accountId))) {
          return yield* new SessionNotFound({ detail: `No session ${sessionId} of yours.` })
        }
        const revoked = yield* repo.revoke({ sessionId: id, accountId, at: yield* now })
        // revoking another of one's sessions (a device one no longer holds) is audited; signing out is not
        if (revoked > 0 && id !== caller.sessionId) {
          yield* audit.record({
            workspaceId: null,
            actorAccountId: accountId,
            action: "session.revoked",
            target: { type: "session", id },
            details: {}
          })
        }
        return { revoked }
      })

    /** Accounts_GetMe: the caller's account, workspaces and roles. */
    const me = (accountId: string) => repo.me(accountId)

    return { signIn, sessions, revoke, me }
  }),
  dependencies: [AccountsRepo.Default]
}) {}
