/**
 * Credentials (spec §5): password sign-in, browser sessions and scoped API keys.
 *
 * - Sessions: the cookie holds a random 256-bit token; the database holds only its
 *   SHA-256. Each session has a CSRF token, likewise stored only as a hash.
 * - API keys: `adk_<prefix>_<secret>`. The database holds the non-secret indexed
 *   prefix and an HMAC-SHA256 verifier keyed by a secret derived from `APP_SECRET`,
 *   compared in constant time (spec §5.3 Storage). Unknown prefixes are verified
 *   against a dummy verifier so timing does not reveal whether a prefix exists.
 *
 * The request-level checks (CSRF, origin, scopes, admin, recent authentication) are
 * in `src/http/AuthMiddleware.ts`; this service owns the credentials themselves.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { Context, Effect, FiberSet, Layer, Option, Redacted, Schema } from "effect"
import { EmailNotVerified, ReauthenticationRequired, Unauthenticated } from "../schema/errors.js"
import { AppConfig } from "./AppConfig.js"
import { now } from "./Clock.js"
import { Ids } from "./Ids.js"
import * as SqlRows from "./SqlRows.js"
import { DummyHash, verifyPassword } from "./Password.js"

/** A live session with its account. */
export interface SessionRecord {
  readonly sessionId: string
  readonly accountId: string
  readonly isAdmin: boolean
  readonly csrfHash: Buffer
  readonly authenticatedAt: Date
  readonly lastSeenAt: Date
  /**
   * The password was right but the account's second factor is still to be verified
   * (src/accounts/mfa): the session may call Accounts_VerifyMfa only.
   */
  readonly mfaPending: boolean
  /** The account has a confirmed second factor (TOTP); admin operations need it. */
  readonly mfaEnabled: boolean
}

/** A valid API key. */
export interface ApiKeyRecord {
  readonly apiKeyId: string
  readonly workspaceId: string
  readonly scopes: ReadonlyArray<string>
  /** Exact browser origins that may use the key (spec §5.4.2); empty = no browser use. */
  readonly allowedOrigins: ReadonlyArray<string>
}

/** How often a key's `last_used_at` is written at most, in milliseconds. */
export const ApiKeyUsageResolutionMs = 60_000

/** What sign-in returns: the secrets are shown to the client once and stored only hashed. */
export interface SignedIn {
  readonly accountId: string
  readonly sessionId: string
  readonly token: Redacted.Redacted
  readonly csrfToken: string
  readonly expiresAt: Date
  /** The account has a second factor: the session is half signed in until Accounts_VerifyMfa. */
  readonly mfaRequired: boolean
}

/** How long a half signed-in session (password right, second factor pending) may still complete, in seconds. */
export const MfaPendingSeconds = 600

/** The one 401 of every credential failure (spec §5.3: identical whatever the cause). */
export const unauthenticated = () =>
  new Unauthenticated({ detail: "Authentication is required: the credential is missing or not valid." })

/** SHA-256 of a secret token, as stored. */
export const tokenHash = (token: string) => createHash("sha256").update(token).digest()

const randomToken = () => randomBytes(32).toString("base64url")

const ApiKeyPattern = /^adk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/

const SessionRow = Schema.Struct({
  session_id: Schema.String,
  account_id: Schema.String,
  is_admin: Schema.Boolean,
  csrf_hash: Schema.Uint8ArrayFromSelf,
  authenticated_at: Schema.DateFromSelf,
  last_seen_at: Schema.DateFromSelf,
  mfa_pending: Schema.Boolean,
  mfa_enabled: Schema.Boolean
})

const ApiKeyRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  verifier: Schema.Uint8ArrayFromSelf,
  environment: Schema.String,
  scopes: Schema.Array(Schema.String),
  state: Schema.String,
  expires_at: Schema.NullOr(Schema.DateFromSelf),
  allowed_origins: Schema.Array(Schema.String),
  last_used_at: Schema.NullOr(Schema.DateFromSelf)
})

const AccountRow = Schema.Struct({ id: Schema.String, password_hash: Schema.String, verified: Schema.Boolean, mfa_enabled: Schema.Boolean })

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // usage writes run here, after the response, and are interrupted when the server stops
  const background = yield* FiberSet.make()
  const config = yield* AppConfig
  const ids = yield* Ids

  const verifierOf = (key: string) => createHmac("sha256", Redacted.value(config.keys.apiKeyVerifier)).update(key).digest()
  const dummyVerifier = verifierOf("adk_000000000000_" + "A".repeat(43))

  const findAccount = SqlSchema.findOne({
    Request: Schema.String,
    Result: AccountRow,
    execute: (email) =>
      sql`SELECT a.id, a.password_hash, a.email_verified_at IS NOT NULL AS verified,
                 EXISTS (SELECT 1 FROM mfa_totp t WHERE t.account_id = a.id AND t.state = 'ENABLED') AS mfa_enabled
          FROM accounts a WHERE lower(a.email) = lower(${email})`
  })
  // per-request: no request schema (its encoding is the identity), rows decoded synchronously
  const findSession = yield* SqlRows.findOne({
    Result: SessionRow,
    // a half signed-in session lives MfaPendingSeconds; the MFA flag is read for admins only (admin operations need it)
    execute: ({ at, hash }: { readonly hash: Uint8Array; readonly at: Date }) =>
      sql`SELECT s.id AS session_id, s.account_id, a.is_admin, s.csrf_hash, s.authenticated_at, s.last_seen_at, s.mfa_pending,
                 (a.is_admin AND EXISTS (SELECT 1 FROM mfa_totp t WHERE t.account_id = a.id AND t.state = 'ENABLED')) AS mfa_enabled
          FROM sessions s JOIN accounts a ON a.id = s.account_id
          WHERE s.token_hash = ${hash} AND s.revoked_at IS NULL AND s.expires_at > ${at}
            AND (NOT s.mfa_pending OR s.created_at > ${new Date(at.getTime() - MfaPendingSeconds * 1000)})`
  })
  const findApiKey = SqlSchema.findOne({
    Request: Schema.String,
    Result: ApiKeyRow,
    execute: (prefix) =>
      sql`SELECT id, workspace_id, verifier, environment, scopes, state, expires_at, allowed_origins, last_used_at
          FROM api_keys WHERE prefix = ${prefix}`
  })

  /**
   * Signs in with email and password and opens a session (spec §5.2). For an account
   * with a confirmed second factor the session is half signed in (`mfa_pending`) until
   * Accounts_VerifyMfa. Fails with the one `Unauthenticated` (401) for a wrong email or
   * password alike, and, after a correct password only, with `EmailNotVerified` (403) for
   * an account whose email is not verified yet (sign-up).
   */
  const signIn = (input: { readonly email: string; readonly password: string; readonly userAgent: string | null }) =>
    Effect.gen(function*() {
      const account = yield* Effect.orDie(findAccount(input.email))
      const ok = yield* verifyPassword(input.password, Option.match(account, { onNone: () => DummyHash, onSome: (a) => a.password_hash }))
      if (!ok || Option.isNone(account)) return yield* unauthenticated()
      if (!account.value.verified) {
        return yield* new EmailNotVerified({ detail: "Verify your email first: follow the link mailed at sign-up, or sign up again for a new one." })
      }
      const at = yield* now
      const sessionId = yield* ids.next
      const token = randomToken()
      const csrfToken = randomToken()
      const expiresAt = new Date(at.getTime() + config.sessionTtlSeconds * 1000)
      yield* Effect.orDie(sql`INSERT INTO sessions ${
        sql.insert({
          id: sessionId,
          account_id: account.value.id,
          token_hash: tokenHash(token),
          csrf_hash: tokenHash(csrfToken),
          user_agent: input.userAgent?.slice(0, 500) ?? null,
          created_at: at,
          authenticated_at: at,
          last_seen_at: at,
          expires_at: expiresAt,
          mfa_pending: account.value.mfa_enabled
        })
      }`)
      const mfaRequired = account.value.mfa_enabled
      return { accountId: account.value.id, sessionId, token: Redacted.make(token), csrfToken, expiresAt, mfaRequired } satisfies SignedIn
    })

  const toRecord = (r: typeof SessionRow.Type): SessionRecord => ({
    sessionId: r.session_id,
    accountId: r.account_id,
    isAdmin: r.is_admin,
    csrfHash: Buffer.from(r.csrf_hash),
    authenticatedAt: r.authenticated_at,
    lastSeenAt: r.last_seen_at,
    mfaPending: r.mfa_pending,
    mfaEnabled: r.mfa_enabled
  })

  /** The live (not revoked, not expired) session of a cookie token, if any. */
  const session = (token: Redacted.Redacted): Effect.Effect<Option.Option<SessionRecord>> => {
    // runs on every session request: a flatMap chain, not Effect.gen
    const value = Redacted.value(token)
    if (value.length < 20 || value.length > 200) return Effect.succeedNone
    return Effect.flatMap(now, (at) =>
      Effect.map(Effect.orDie(findSession({ hash: tokenHash(value), at })), Option.map(toRecord)))
  }

  /** Records activity on a session at most once a minute (for the sessions list). */
  const touch = (s: SessionRecord): Effect.Effect<void> =>
    Effect.flatMap(now, (at) =>
      at.getTime() - s.lastSeenAt.getTime() < 60_000
        ? Effect.void
        : Effect.orDie(sql`UPDATE sessions SET last_seen_at = ${at} WHERE id = ${s.sessionId}`))

  /**
   * Sensitive actions (spec §5.2 "recent authentication or MFA"): succeeds when the session
   * authenticated (signed in, or verified a second factor with Accounts_VerifyMfa: step-up)
   * within `RECENT_AUTH_SECONDS`; else fails with `ReauthenticationRequired` (403 `reauthentication-required`).
   */
  const requireRecentAuthentication = (authenticatedAt: Date) =>
    Effect.flatMap(now, (at) =>
      at.getTime() - authenticatedAt.getTime() <= config.recentAuthSeconds * 1000
        ? Effect.void
        : Effect.fail(
          new ReauthenticationRequired({
            detail: `This action needs a sign-in within the last ${Math.round(config.recentAuthSeconds / 60)} minutes; sign in again or verify your second factor (POST /api/v1/auth/mfa).`
          })
        ))

  /** True when `csrfToken` is the session's CSRF token (constant-time). */
  const csrfMatches = (s: SessionRecord, csrfToken: string | undefined) =>
    csrfToken !== undefined && csrfToken.length <= 200 && timingSafeEqual(tokenHash(csrfToken), s.csrfHash)

  /**
   * Records a key's use at most once per {@link ApiKeyUsageResolutionMs}, off the
   * request's path: a forked write whose failure is only logged. The conditional
   * UPDATE keeps several processes from writing the same minute twice.
   */
  const recordUse = (id: string, lastUsedAt: Date | null, at: Date) =>
    lastUsedAt !== null && at.getTime() - lastUsedAt.getTime() < ApiKeyUsageResolutionMs
      ? Effect.void
      : FiberSet.run(
        background,
        sql`UPDATE api_keys SET last_used_at = ${at}
            WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at <= ${new Date(at.getTime() - ApiKeyUsageResolutionMs)})`.pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("recording an API key's use failed", cause))
        )
      ).pipe(Effect.asVoid)

  /**
   * The API key of a presented credential, when it is well-formed, known, ACTIVE,
   * unexpired and of this deployment's environment; `None` in every other case
   * (the caller answers all of them with the same 401). A valid key's use is
   * recorded (see `recordUse`).
   */
  const apiKey = (presented: Redacted.Redacted): Effect.Effect<Option.Option<ApiKeyRecord>> =>
    Effect.gen(function*() {
      const key = Redacted.value(presented)
      const match = ApiKeyPattern.exec(key)
      const row = match === null ? Option.none() : yield* Effect.orDie(findApiKey(match[1]!))
      const expected = Option.match(row, { onNone: () => dummyVerifier, onSome: (r) => Buffer.from(r.verifier) })
      const actual = verifierOf(key)
      const verified = expected.length === actual.length && timingSafeEqual(expected, actual)
      const at = yield* now
      const valid = Option.filter(row, (r) =>
        verified && r.state === "ACTIVE" && r.environment === config.environment &&
        (r.expires_at === null || r.expires_at.getTime() > at.getTime()))
      if (Option.isNone(valid)) return Option.none()
      const r = valid.value
      yield* recordUse(r.id, r.last_used_at, at)
      return Option.some({ apiKeyId: r.id, workspaceId: r.workspace_id, scopes: r.scopes, allowedOrigins: r.allowed_origins })
    })

  /**
   * Creates an API key for a workspace and returns its plaintext, which is never
   * stored (spec §5.3 Creation). `key` may be given to make a deterministic demo key.
   */
  const issueApiKey = (input: {
    readonly id: string
    readonly workspaceId: string
    readonly name?: string
    readonly createdBy?: string | null
    readonly allowedOrigins?: ReadonlyArray<string>
    readonly scopes: ReadonlyArray<string>
    readonly environment: string
    readonly state?: "ACTIVE" | "PAUSED" | "REVOKED"
    readonly expiresAt?: Date | null
    readonly key?: string
  }) =>
    Effect.gen(function*() {
      const key = input.key ?? `adk_${randomBytes(6).toString("hex")}_${randomToken()}`
      const match = ApiKeyPattern.exec(key)
      if (match === null) return yield* Effect.dieMessage("malformed API key")
      const at = yield* now
      yield* Effect.orDie(sql`
        INSERT INTO api_keys (id, workspace_id, name, created_by, prefix, verifier, environment, scopes, allowed_origins,
                              state, expires_at, created_at)
        VALUES (${input.id}, ${input.workspaceId}, ${input.name ?? ""}, ${input.createdBy ?? null}, ${match[1]!},
                ${verifierOf(key)}, ${input.environment},
                ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(input.scopes)}::jsonb)),
                ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(input.allowedOrigins ?? [])}::jsonb)),
                ${input.state ?? "ACTIVE"}, ${input.expiresAt ?? null}, ${at})`)
      return Redacted.make(key)
    })

  return { signIn, session, touch, csrfMatches, requireRecentAuthentication, apiKey, issueApiKey } as const
})

/** Credentials service: sign-in, sessions, API keys. */
export class Auth extends Context.Tag("agent-directory/Auth")<Auth, Effect.Effect.Success<typeof make>>() {}

/** Auth on the database. Requires `SqlClient`, `AppConfig`, `Ids`. */
export const AuthLive = Layer.scoped(Auth, make)
