/**
 * Raw HTTP helpers over the test server's `HttpClient` (for malformed input,
 * headers and cookies), and assertions shared by every area's tests.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { DemoAccounts, DemoAdminMfa, type DemoAccountName } from "../../demo/accounts/seed.js"
import { totpCode } from "../../src/accounts/mfa/Totp.js"

/** A signed-in browser session. */
export interface Session {
  readonly cookie: string
  readonly csrf: string
  readonly accountId: string
  readonly sessionId: string
}

export interface CallOptions {
  /** JSON body. */
  readonly body?: unknown
  /** Raw body text (sent as is, with `contentType`). */
  readonly raw?: string
  readonly contentType?: string
  readonly headers?: Record<string, string>
  readonly session?: Session
  /** Sent as `X-CSRF-Token` on commands; default: the session's token. `null` omits it. */
  readonly csrf?: string | null
  /** Idempotency-Key on POST/PUT/PATCH/DELETE; default: a fresh uuid. `null` omits it. */
  readonly idempotencyKey?: string | null
}

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: any
  readonly text: string
}

const commands = new Set(["POST", "DELETE", "PUT", "PATCH"])

/** Sends one request to the test server. */
export const call = (method: "GET" | "POST" | "DELETE" | "PATCH" | "PUT", path: string, options: CallOptions = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const headers: Record<string, string> = {}
    if (options.session) headers["cookie"] = options.session.cookie
    if (commands.has(method)) {
      const csrf = options.csrf === undefined ? options.session?.csrf : options.csrf
      if (csrf != null) headers["x-csrf-token"] = csrf
      const key = options.idempotencyKey === undefined ? randomUUID() : options.idempotencyKey
      if (key !== null) headers["idempotency-key"] = key
    }
    Object.assign(headers, options.headers)
    let request = HttpClientRequest.make(method)(path).pipe(HttpClientRequest.setHeaders(headers))
    if (options.raw !== undefined) {
      request = HttpClientRequest.bodyText(request, options.raw, options.contentType ?? "application/json")
    } else if (options.body !== undefined) {
      request = HttpClientRequest.bodyUnsafeJson(request, options.body)
    }
    const response = yield* client.execute(request)
    const text = yield* response.text
    let body: unknown = undefined
    try {
      body = text === "" ? undefined : JSON.parse(text)
    } catch {
      body = text
    }
    return { status: response.status, headers: response.headers, body, text } as Reply
  }).pipe(Effect.scoped, Effect.orDie)

/** Signs a demo account in and returns its session. */
export const signIn = (account: DemoAccountName) =>
  signInWith(DemoAccounts[account].email, DemoAccounts[account].password)

/**
 * Signs in with `email` and `password` (200 expected); returns the session with its CSRF token.
 * An account with a second factor (the demo admin, `DemoAdminMfa`) is completed with
 * {@link completeMfa}; `{ mfa: false }` leaves the session half signed in.
 */
export const signInWith = (email: string, password: string, options: { readonly mfa?: boolean } = {}) =>
  Effect.gen(function*() {
    const reply = yield* call("POST", "/api/v1/auth/sign-in", { body: { email, password } })
    expect(reply.status, reply.text).toBe(200)
    const setCookie = reply.headers["set-cookie"] ?? ""
    const cookie = setCookie.split(";")[0]!
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43}$/)
    const session = {
      cookie,
      csrf: reply.body.data.csrfToken,
      accountId: reply.body.data.accountPublicId,
      sessionId: reply.body.data.sessionId
    } satisfies Session
    if (reply.body.data.mfaRequired === true && options.mfa !== false) {
      yield* completeMfa(session, new Date(reply.body.meta.generatedAt))
    }
    return session
  })

/**
 * Completes the demo admin's second factor on `session` at the server's time `at`:
 * Accounts_VerifyMfa with a TOTP code of the demo secret for the previous, current or next
 * time step. Each step is accepted once per account and the test clock stands still, so once
 * those are used on this database the session is completed in storage instead (what
 * Accounts_VerifyMfa would do): the second factor itself is tested in test/accounts/Mfa.test.ts.
 */
export const completeMfa = (session: Session, at: Date) =>
  Effect.gen(function*() {
    expect(session.accountId, "only the demo admin has a known second factor").toBe(DemoAccounts[DemoAdminMfa.account].id)
    for (const step of [-1, 0, 1]) {
      const code = totpCode(DemoAdminMfa.secret, new Date(at.getTime() + step * 30_000))
      const verified = yield* call("POST", "/api/v1/auth/mfa", { session, body: { code } })
      if (verified.status === 200) return
      expect(verified.status, verified.text).toBe(400)
    }
    // a test without the server's database (another process) cannot: it has three admin sign-ins per time step
    const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
    if (Option.isNone(sql)) return expect.fail("the demo admin's TOTP steps at this time are used up on this database")
    const completed = yield* sql.value`UPDATE sessions SET mfa_pending = false WHERE id = ${session.sessionId} RETURNING id`.pipe(
      Effect.orDie
    )
    expect(completed).toHaveLength(1)
  })

/**
 * Asserts an RFC 9457 problem response: status, content type, `type` slug, the
 * request id (matching `X-Request-Id`), and nothing internal on the wire.
 */
export const expectProblem = (reply: Reply, status: number, kind?: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.headers["content-type"]).toMatch(/^application\/problem\+json/)
  expect(reply.body.status).toBe(status)
  expect(typeof reply.body.title).toBe("string")
  expect(typeof reply.body.detail).toBe("string")
  expect(reply.body.requestId).toBe(reply.headers["x-request-id"])
  expect(reply.body.instance).toMatch(/^\//)
  if (kind !== undefined) expect(reply.body.type).toBe(`https://agent-directory.dev/problems/${kind}`)
  expect(reply.text).not.toMatch(/_tag|stack|SELECT|INSERT|UPDATE /)
}

/** Asserts a success envelope's `meta` (spec §2.2). */
export const expectMeta = (reply: Reply) => {
  expect(reply.body.meta.requestId).toBe(reply.headers["x-request-id"])
  expect(reply.body.meta.schemaVersion).toBe("1.0.0")
  expect(reply.body.meta.buildVersion).toBe("test")
  expect(reply.body.meta.generatedAt).toMatch(/Z$/)
  expect(reply.body.meta.freshness).toEqual({ projectedAt: null, sourceWatermark: null })
}
