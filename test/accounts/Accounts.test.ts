/**
 * Accounts area (spec §5.2): password sign-in, the session cookie, listing and
 * revoking the caller's browser sessions, and the session command protections
 * (CSRF token, Origin, Sec-Fetch-Site, Idempotency-Key, recent authentication).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { cookieAttributes, UuidPattern, withoutRequestFields } from "../auth/support.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"

const SignInPath = "/api/v1/auth/sign-in"
const SessionsPath = "/api/v1/me/sessions"
const sessionPath = (sessionId: string) => `${SessionsPath}/${sessionId}`

/** The caller's session list (asserting a 200). */
const listSessions = (session: Session) =>
  Effect.gen(function*() {
    const reply = yield* call("GET", SessionsPath, { session })
    expect(reply.status, reply.text).toBe(200)
    return reply.body.data as ReadonlyArray<{ readonly sessionId: string; readonly current: boolean } & Record<string, unknown>>
  })

/** Asserts that `session` still authenticates (or no longer does). */
const expectLive = (session: Session, live: boolean) =>
  Effect.gen(function*() {
    const reply = yield* call("GET", SessionsPath, { session })
    if (live) expect(reply.status, reply.text).toBe(200)
    else expectProblem(reply, 401, "unauthenticated")
  })

const signInServer = makeTestServer()

layer(signInServer.layer)("Accounts_SignIn", (it) => {
  it.effect("signs in: envelope, HttpOnly/SameSite=Lax/Secure session cookie, and a session that works", () =>
    Effect.gen(function*() {
      const { email, id, password } = DemoAccounts.owner
      const reply = yield* call("POST", SignInPath, { body: { email, password } })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^application\/json/)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(reply.body.meta.generatedAt).toBe(TestEpoch.toISOString())

      const data = reply.body.data
      expect(Object.keys(data).sort()).toEqual(["accountPublicId", "csrfToken", "expiresAt", "mfaRequired", "sessionId"])
      expect(data.accountPublicId).toBe(id)
      expect(data.mfaRequired).toBe(false)
      expect(data.sessionId).toMatch(UuidPattern)
      expect(typeof data.csrfToken).toBe("string")
      expect(data.csrfToken.length).toBeGreaterThanOrEqual(32)
      expect(data.expiresAt).toBe(new Date(TestEpoch.getTime() + 12 * 3600 * 1000).toISOString())

      const { attributes, pair } = cookieAttributes(reply)
      expect(pair).toMatch(/^session=[A-Za-z0-9_-]{43}$/)
      const token = pair.slice("session=".length)
      expect(token).not.toBe(data.csrfToken)
      expect(reply.text).not.toContain(token)
      const names = attributes.map((a) => a.split("=")[0]!.toLowerCase())
      expect(names).toContain("httponly")
      expect(names).toContain("secure")
      expect(attributes.map((a) => a.toLowerCase())).toContain("samesite=lax")
      expect(attributes).toContain("Path=/")
      const expires = attributes.find((a) => a.toLowerCase().startsWith("expires="))
      expect(expires).toBeDefined()
      expect(new Date(expires!.slice("expires=".length)).toISOString()).toBe(data.expiresAt)

      const session: Session = { cookie: pair, csrf: data.csrfToken, accountId: data.accountPublicId, sessionId: data.sessionId }
      const sessions = yield* listSessions(session)
      const mine = sessions.filter((s) => s.sessionId === data.sessionId)
      expect(mine).toHaveLength(1)
      expect(mine[0]!.current).toBe(true)
      expect(mine[0]!.createdAt).toBe(TestEpoch.toISOString())
      expect(mine[0]!.authenticatedAt).toBe(TestEpoch.toISOString())
      expect(mine[0]!.expiresAt).toBe(data.expiresAt)
      expect(sessions.filter((s) => s.current)).toHaveLength(1)
    }))

  it.effect("matches the email case-insensitively", () =>
    Effect.gen(function*() {
      const { email, id, password } = DemoAccounts.member
      const reply = yield* call("POST", SignInPath, { body: { email: email.toUpperCase(), password } })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data.accountPublicId).toBe(id)
    }))

  it.effect("answers a wrong password and an unknown email with one identical 401 and no cookie", () =>
    Effect.gen(function*() {
      const wrongPassword = yield* call("POST", SignInPath, {
        body: { email: DemoAccounts.owner.email, password: "not-the-password" }
      })
      const unknownEmail = yield* call("POST", SignInPath, {
        body: { email: "nobody@demo.agent-directory.dev", password: DemoAccounts.owner.password }
      })
      // another account's password for an existing email
      const otherPassword = yield* call("POST", SignInPath, {
        body: { email: DemoAccounts.owner.email, password: DemoAccounts.member.password }
      })
      for (const reply of [wrongPassword, unknownEmail, otherPassword]) {
        expectProblem(reply, 401, "unauthenticated")
        expect(reply.headers["set-cookie"]).toBeUndefined()
      }
      expect(wrongPassword.body.requestId).not.toBe(unknownEmail.body.requestId)
      expect(withoutRequestFields(unknownEmail.body)).toEqual(withoutRequestFields(wrongPassword.body))
      expect(withoutRequestFields(otherPassword.body)).toEqual(withoutRequestFields(wrongPassword.body))
      // the same shape as any other missing credential
      const noSession = yield* call("GET", SessionsPath)
      expect(withoutRequestFields(noSession.body)).toEqual(withoutRequestFields(wrongPassword.body))
    }))

  it.effect("rejects unknown body keys and missing fields with 400 and JSON pointers", () =>
    Effect.gen(function*() {
      const { email, password } = DemoAccounts.owner
      const extra = yield* call("POST", SignInPath, { body: { email, password, extra: true } })
      expectProblem(extra, 400, "invalid-request")
      expect(extra.body.errors).toContainEqual(expect.objectContaining({ in: "body", pointer: "/extra" }))
      expect(extra.headers["set-cookie"]).toBeUndefined()

      const missing = yield* call("POST", SignInPath, { body: { email } })
      expectProblem(missing, 400, "invalid-request")
      expect(missing.body.errors).toContainEqual(expect.objectContaining({ in: "body", pointer: "/password" }))
      expect(missing.headers["set-cookie"]).toBeUndefined()

      const empty = yield* call("POST", SignInPath, { body: { email, password: "" } })
      expectProblem(empty, 400, "invalid-request")
      expect(empty.body.errors).toContainEqual(expect.objectContaining({ in: "body", pointer: "/password" }))
    }))

  it.effect("refuses a foreign Origin (login CSRF) and accepts the request's own origin", () =>
    Effect.gen(function*() {
      const { email, password } = DemoAccounts.owner
      const foreign = yield* call("POST", SignInPath, {
        body: { email, password },
        headers: { origin: "https://evil.example" }
      })
      expectProblem(foreign, 403, "origin-not-allowed")
      expect(foreign.headers["set-cookie"]).toBeUndefined()

      const host = "directory.test:8443"
      const sameHost = yield* call("POST", SignInPath, {
        body: { email, password },
        headers: { host, origin: `http://${host}` }
      })
      expect(sameHost.status, sameHost.text).toBe(200)
      expect(sameHost.headers["set-cookie"]).toMatch(/^session=/)

      const otherPort = yield* call("POST", SignInPath, {
        body: { email, password },
        headers: { host, origin: "http://directory.test:9999" }
      })
      expectProblem(otherPort, 403, "origin-not-allowed")

      const garbage = yield* call("POST", SignInPath, { body: { email, password }, headers: { host, origin: "null" } })
      expectProblem(garbage, 403, "origin-not-allowed")
    }))
})

const allowlistServer = makeTestServer({ allowedOrigins: ["https://app.example"] })

layer(allowlistServer.layer)("ALLOWED_ORIGINS", (it) => {
  const host = "directory.test"

  it.effect("sign-in accepts exactly the listed origins, and no longer the request's own host", () =>
    Effect.gen(function*() {
      const { email, password } = DemoAccounts.owner
      const allowed = yield* call("POST", SignInPath, {
        body: { email, password },
        headers: { host, origin: "https://app.example" }
      })
      expect(allowed.status, allowed.text).toBe(200)
      expect(allowed.headers["set-cookie"]).toMatch(/^session=/)

      for (const origin of [`http://${host}`, "http://app.example", "https://app.example:443", "https://app.example.evil", "https://evil.example"]) {
        const reply = yield* call("POST", SignInPath, { body: { email, password }, headers: { host, origin } })
        expectProblem(reply, 403, "origin-not-allowed")
        expect(reply.headers["set-cookie"]).toBeUndefined()
      }
    }))

  it.effect("session commands accept exactly the listed origins", () =>
    Effect.gen(function*() {
      const a = yield* signIn("member")
      const b = yield* signIn("member")
      const sameHost = yield* call("DELETE", sessionPath(b.sessionId), {
        session: a,
        headers: { host, origin: `http://${host}` }
      })
      expectProblem(sameHost, 403, "origin-not-allowed")
      yield* expectLive(b, true)

      const allowed = yield* call("DELETE", sessionPath(b.sessionId), {
        session: a,
        headers: { host, origin: "https://app.example" }
      })
      expect(allowed.status, allowed.text).toBe(200)
      expect(allowed.body.data).toEqual({ revoked: 1 })
      yield* expectLive(b, false)
    }))
})

const sessionsServer = makeTestServer()

layer(sessionsServer.layer)("Accounts_ListSessions and Accounts_RevokeSession", (it) => {
  it.effect("lists the caller's own live sessions, newest first, with exactly one current", () =>
    Effect.gen(function*() {
      const first = yield* signIn("member")
      sessionsServer.clock.advance(1000)
      const second = yield* signIn("member")
      sessionsServer.clock.advance(1000)
      const outsider = yield* signIn("outsider")
      const owner = yield* signIn("owner")
      expect(first.accountId).toBe(second.accountId)

      const seenBySecond = yield* listSessions(second)
      const ids = seenBySecond.map((s) => s.sessionId)
      expect(ids).toContain(first.sessionId)
      expect(ids).toContain(second.sessionId)
      expect(ids.indexOf(second.sessionId)).toBeLessThan(ids.indexOf(first.sessionId))
      expect(ids).not.toContain(outsider.sessionId)
      expect(ids).not.toContain(owner.sessionId)
      expect(seenBySecond.filter((s) => s.current).map((s) => s.sessionId)).toEqual([second.sessionId])
      const createdAt = seenBySecond.map((s) => Date.parse(String(s["createdAt"])))
      expect([...createdAt].sort((x, y) => y - x)).toEqual(createdAt)
      for (const s of seenBySecond) {
        expect(Object.keys(s).sort()).toEqual(
          ["authenticatedAt", "createdAt", "current", "expiresAt", "lastSeenAt", "sessionId", "userAgent"]
        )
      }

      const seenByFirst = yield* listSessions(first)
      expect(seenByFirst.map((s) => s.sessionId)).toEqual(ids)
      expect(seenByFirst.filter((s) => s.current).map((s) => s.sessionId)).toEqual([first.sessionId])

      const seenByOutsider = yield* listSessions(outsider)
      expect(seenByOutsider.map((s) => s.sessionId)).toContain(outsider.sessionId)
      expect(seenByOutsider.map((s) => s.sessionId)).not.toContain(first.sessionId)
      expect(seenByOutsider.map((s) => s.sessionId)).not.toContain(second.sessionId)
    }))

  it.effect("answers 401 without a cookie, with a garbage cookie and with an unknown token", () =>
    Effect.gen(function*() {
      const none = yield* call("GET", SessionsPath)
      const garbage = yield* call("GET", SessionsPath, { headers: { cookie: "session=garbage" } })
      const unknown = yield* call("GET", SessionsPath, { headers: { cookie: `session=${"A".repeat(43)}` } })
      const empty = yield* call("GET", SessionsPath, { headers: { cookie: "session=" } })
      const otherCookie = yield* call("GET", SessionsPath, { headers: { cookie: "theme=dark" } })
      for (const reply of [none, garbage, unknown, empty, otherCookie]) expectProblem(reply, 401, "unauthenticated")
      for (const reply of [garbage, unknown, empty, otherCookie]) {
        expect(withoutRequestFields(reply.body)).toEqual(withoutRequestFields(none.body))
      }
    }))

  it.effect("refuses commands without Idempotency-Key, CSRF token, allowed Origin, or from a cross-site context", () =>
    Effect.gen(function*() {
      const a = yield* signIn("owner")
      const b = yield* signIn("owner")
      const target = sessionPath(b.sessionId)

      const noKey = yield* call("DELETE", target, { session: a, idempotencyKey: null })
      expectProblem(noKey, 400, "idempotency-key-required")
      expect(noKey.body.errors).toContainEqual(expect.objectContaining({ in: "header", pointer: "/idempotency-key" }))

      const badKey = yield* call("DELETE", target, { session: a, idempotencyKey: "not-a-uuid" })
      expectProblem(badKey, 400)

      const noCsrf = yield* call("DELETE", target, { session: a, csrf: null })
      expectProblem(noCsrf, 403, "csrf-token-invalid")

      const otherSessionsCsrf = yield* call("DELETE", target, { session: a, csrf: b.csrf })
      expectProblem(otherSessionsCsrf, 403, "csrf-token-invalid")

      const garbageCsrf = yield* call("DELETE", target, { session: a, csrf: "garbage" })
      expectProblem(garbageCsrf, 403, "csrf-token-invalid")

      const foreignOrigin = yield* call("DELETE", target, { session: a, headers: { origin: "https://evil.example" } })
      expectProblem(foreignOrigin, 403, "origin-not-allowed")

      const crossSite = yield* call("DELETE", target, { session: a, headers: { "sec-fetch-site": "cross-site" } })
      expectProblem(crossSite, 403, "cross-site-request")

      // none of these revoked anything
      yield* expectLive(b, true)
      expect((yield* listSessions(a)).map((s) => s.sessionId)).toContain(b.sessionId)

      // the same request with every protection satisfied goes through
      const host = "directory.test"
      const ok = yield* call("DELETE", target, {
        session: a,
        headers: { host, origin: `http://${host}`, "sec-fetch-site": "same-origin" }
      })
      expect(ok.status, ok.text).toBe(200)
      expect(ok.body.data).toEqual({ revoked: 1 })
      yield* expectLive(b, false)
    }))

  it.effect("revokes another own session: 200 {revoked:1}, its cookie then 401, again {revoked:0}", () =>
    Effect.gen(function*() {
      const a = yield* signIn("owner")
      const b = yield* signIn("owner")

      const revoked = yield* call("DELETE", sessionPath(b.sessionId), { session: a })
      expect(revoked.status, revoked.text).toBe(200)
      expect(revoked.headers["cache-control"]).toBe("no-store")
      expect(revoked.body.data).toEqual({ revoked: 1 })
      expectMeta(revoked)

      yield* expectLive(b, false)
      const remaining = (yield* listSessions(a)).map((s) => s.sessionId)
      expect(remaining).toContain(a.sessionId)
      expect(remaining).not.toContain(b.sessionId)

      const again = yield* call("DELETE", sessionPath(b.sessionId), { session: a })
      expect(again.status, again.text).toBe(200)
      expect(again.body.data).toEqual({ revoked: 0 })
      yield* expectLive(a, true)
    }))

  it.effect("accepts the session id in upper case", () =>
    Effect.gen(function*() {
      const a = yield* signIn("member")
      const b = yield* signIn("member")
      const reply = yield* call("DELETE", sessionPath(b.sessionId.toUpperCase()), { session: a })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual({ revoked: 1 })
      yield* expectLive(b, false)
    }))

  it.effect("answers 404 for another account's session, an unknown id and a non-uuid id", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const outsider = yield* signIn("outsider")

      const foreign = yield* call("DELETE", sessionPath(outsider.sessionId), { session: owner })
      expectProblem(foreign, 404, "session-not-found")
      yield* expectLive(outsider, true)

      const unknown = yield* call("DELETE", sessionPath(randomUUID()), { session: owner })
      expectProblem(unknown, 404, "session-not-found")

      const notUuid = yield* call("DELETE", sessionPath("abc"), { session: owner })
      expectProblem(notUuid, 404, "session-not-found")

      // "not yours" and "does not exist" are indistinguishable
      expect(withoutRequestFields(foreign.body)["type"]).toBe(withoutRequestFields(unknown.body)["type"])
      yield* expectLive(owner, true)
    }))

  it.effect("revoking the current session signs out", () =>
    Effect.gen(function*() {
      const a = yield* signIn("member")
      const b = yield* signIn("member")
      const reply = yield* call("DELETE", sessionPath(a.sessionId), { session: a })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual({ revoked: 1 })
      yield* expectLive(a, false)
      const again = yield* call("DELETE", sessionPath(a.sessionId), { session: a })
      expectProblem(again, 401, "unauthenticated")
      // the account's other sessions are untouched
      yield* expectLive(b, true)
      expect((yield* listSessions(b)).map((s) => s.sessionId)).not.toContain(a.sessionId)
    }))
})

const recentAuthServer = makeTestServer()

layer(recentAuthServer.layer)("Accounts_RevokeSession needs a recent authentication", (it) => {
  it.effect("works within 15 minutes of sign-in, then 403 reauthentication-required until signing in again", () =>
    Effect.gen(function*() {
      const a = yield* signIn("owner")
      const b = yield* signIn("owner")
      const c = yield* signIn("owner")

      recentAuthServer.clock.advance(14 * 60 * 1000)
      const withinWindow = yield* call("DELETE", sessionPath(c.sessionId), { session: a })
      expect(withinWindow.status, withinWindow.text).toBe(200)
      expect(withinWindow.body.data).toEqual({ revoked: 1 })

      recentAuthServer.clock.advance(2 * 60 * 1000)
      const stale = yield* call("DELETE", sessionPath(b.sessionId), { session: a })
      expectProblem(stale, 403, "reauthentication-required")
      yield* expectLive(b, true)

      // reads do not need a recent authentication; the session is still live and was used just now
      const sessions = yield* listSessions(a)
      const current = sessions.find((s) => s.sessionId === a.sessionId)
      expect(current?.current).toBe(true)
      expect(current?.["authenticatedAt"]).toBe(TestEpoch.toISOString())
      expect(current?.["lastSeenAt"]).toBe(new Date(TestEpoch.getTime() + 16 * 60 * 1000).toISOString())
      expect(sessions.map((s) => s.sessionId)).toContain(b.sessionId)

      // signing in again gives a fresh authentication
      const fresh = yield* signIn("owner")
      const revoked = yield* call("DELETE", sessionPath(b.sessionId), { session: fresh })
      expect(revoked.status, revoked.text).toBe(200)
      expect(revoked.body.data).toEqual({ revoked: 1 })
      yield* expectLive(b, false)

      // signing out (revoking the current session) never needs a recent sign-in: a's is 16 minutes old
      const signOut = yield* call("DELETE", sessionPath(a.sessionId), { session: a })
      expect(signOut.status, signOut.text).toBe(200)
      expect(signOut.body.data).toEqual({ revoked: 1 })
      yield* expectLive(a, false)
    }))
})
