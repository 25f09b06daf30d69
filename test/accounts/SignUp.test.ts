/**
 * Sign-up, email verification and password reset (src/accounts/signUp/), through the real
 * HTTP stack and a real SMTP server in the test process: links are read from the mails.
 * Covers: sign up → mail → verify → sign in; an unverified account cannot sign in; a taken
 * email answers the identical 202 and gets the other mail; weak passwords; single-use and
 * expiring tokens; a reset revokes every session; the SIGN_UP modes; the mail throttle.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { call, expectMeta, expectProblem, type Reply, type Session, signInWith } from "../support/http.js"
import { SmtpInbox } from "../support/smtp.js"
import { testConfig } from "../support/config.js"
import { makeMailTestServer, makeTestServer, TestEpoch } from "../support/TestServer.js"
import { pause } from "../support/time.js"

const SignUpPath = "/api/v1/auth/sign-up"
const VerifyPath = "/api/v1/auth/email-verification"
const ResetPath = "/api/v1/auth/password-reset"
const CompletePath = "/api/v1/auth/password-reset/complete"
const SignInPath = "/api/v1/auth/sign-in"

const Strong = "vivid-otter-marble-92"
const Stronger = "quiet-lantern-harbor-57"

const signUp = (body: { email: string; password: string; displayName: string }) => call("POST", SignUpPath, { body })

/** The token of a mailed link (`…#token=<token>`) whose path is `path`. */
const tokenOf = (links: ReadonlyArray<string>, path: string) => {
  const link = links.find((l) => l.startsWith(`https://directory.test${path}#token=`))
  expect(link, `a ${path} link in ${links.join(", ")}`).toBeDefined()
  return link!.slice(link!.indexOf("#token=") + "#token=".length)
}

/** Asserts the one 202 of sign-up and reset requests: `{accepted: true}` and meta, nothing else. */
const expectAccepted = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(202)
  expect(reply.headers["cache-control"]).toBe("no-store")
  expectMeta(reply)
  expect(Object.keys(reply.body).sort()).toEqual(["data", "meta"])
  expect(reply.body.data).toEqual({ accepted: true })
}

const signInReply = (email: string, password: string) => call("POST", SignInPath, { body: { email, password } })

/** The audit events of an account, oldest first. */
const auditOf = (accountId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ action: string; workspace_id: string | null; actor_account_id: string }>`
      SELECT action, workspace_id, actor_account_id FROM audit_events WHERE target_id = ${accountId} ORDER BY created_at, id`).pipe(Effect.orDie)

const open = makeMailTestServer()

layer(open.layer, { timeout: 120_000 })("sign-up (SIGN_UP=open)", (it) => {
  it.effect("sign up → verification mail → verify from the link → sign in; the link works once", () =>
    Effect.gen(function*() {
      const inbox = yield* SmtpInbox
      const email = "Ada.Lovelace@Example.com"
      expectAccepted(yield* signUp({ email, password: Strong, displayName: "Ada" }))
      const mail = yield* inbox.waitFor(email, { subject: /Verify your email/ })
      expect(mail.text).toContain("48 hours")
      const token = tokenOf(mail.links, "/verify-email")
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)

      // unverified: the right password gets 403, a wrong one the identical 401 as ever
      expectProblem(yield* signInReply(email, Strong), 403, "email-not-verified")
      const wrong = yield* signInReply(email, "not-the-password-at-all")
      expectProblem(wrong, 401, "unauthenticated")
      const unknown = yield* signInReply("nobody@example.com", "not-the-password-at-all")
      expect(Object.keys(wrong.body).sort()).toEqual(Object.keys(unknown.body).sort())
      expect(wrong.body.detail).toBe(unknown.body.detail)

      const verified = yield* call("POST", VerifyPath, { body: { token } })
      expect(verified.status, verified.text).toBe(200)
      expectMeta(verified)
      expect(verified.body.data.emailVerifiedAt).toBe(TestEpoch.toISOString())
      const session = yield* signInWith(email.toLowerCase(), Strong)
      expect(session.accountId).toBe(verified.body.data.accountPublicId)
      const me = yield* call("GET", "/api/v1/me", { session })
      expect(me.body.data).toMatchObject({ email, displayName: "Ada", isAdmin: false, workspaces: [] })

      expectProblem(yield* call("POST", VerifyPath, { body: { token } }), 400, "token-invalid")
      expectProblem(yield* call("POST", VerifyPath, { body: { token: "A".repeat(43) } }), 400, "token-invalid")

      const audit = yield* auditOf(session.accountId)
      expect(audit.map((a) => a.action)).toEqual(["account.signed_up", "account.email_verified"])
      expect(audit.every((a) => a.workspace_id === null && a.actor_account_id === session.accountId)).toBe(true)
    }))

  it.effect("a taken email: the identical 202 body, and an 'already have an account' mail instead of a link", () =>
    Effect.gen(function*() {
      const inbox = yield* SmtpInbox
      const fresh = yield* signUp({ email: "grace@example.com", password: Strong, displayName: "Grace" })
      const taken = yield* signUp({ email: DemoAccounts.member.email.toUpperCase(), password: Strong, displayName: "Someone" })
      expectAccepted(fresh)
      expectAccepted(taken)
      expect(taken.body.data).toEqual(fresh.body.data)
      expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort())
      const mail = yield* inbox.waitFor(DemoAccounts.member.email, { subject: /already have/ })
      expect(mail.links).toEqual(["https://directory.test/reset-password"])
      expect(mail.text).not.toContain("#token=")
      // the member's password is unchanged
      yield* signInWith(DemoAccounts.member.email, DemoAccounts.member.password)
    }))

  it.effect("a weak password is a 400 naming `password` and the rule, never the value; nothing is created or mailed", () =>
    Effect.gen(function*() {
      const inbox = yield* SmtpInbox
      for (const password of ["password1234", "katherine.j@example.com", "Katherine Johnson!"]) {
        const reply = yield* signUp({ email: "katherine.j@example.com", password, displayName: "Katherine Johnson" })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors).toEqual([{ in: "body", pointer: "/password", detail: expect.stringContaining("at least 3 of 4") }])
        expect(reply.text).not.toContain(password)
      }
      // too short: the schema's bound, same field
      const short = yield* signUp({ email: "katherine.j@example.com", password: "xK9#q", displayName: "K" })
      expectProblem(short, 400, "invalid-request")
      expect(short.body.errors[0].pointer).toBe("/password")
      expect(short.text).not.toContain("xK9#q")
      yield* pause(300)
      expect((yield* inbox.all).filter((m) => m.to.includes("katherine.j@example.com"))).toEqual([])
      expectProblem(yield* signInReply("katherine.j@example.com", "password1234"), 401, "unauthenticated")
    }))

  it.effect("signing up again before verifying: a new link, the old one dead, the latest password wins", () =>
    Effect.gen(function*() {
      const inbox = yield* SmtpInbox
      const email = "hedy@example.com"
      expectAccepted(yield* signUp({ email, password: Strong, displayName: "Hedy" }))
      const first = tokenOf((yield* inbox.waitFor(email)).links, "/verify-email")
      expectAccepted(yield* signUp({ email, password: Stronger, displayName: "Hedy L." }))
      const second = tokenOf((yield* inbox.waitFor(email, { skip: 1 })).links, "/verify-email")
      expect(second).not.toBe(first)
      expectProblem(yield* call("POST", VerifyPath, { body: { token: first } }), 400, "token-invalid")
      expect((yield* call("POST", VerifyPath, { body: { token: second } })).status).toBe(200)
      expectProblem(yield* signInReply(email, Strong), 401, "unauthenticated")
      const session = yield* signInWith(email, Stronger)
      expect((yield* call("GET", "/api/v1/me", { session })).body.data.displayName).toBe("Hedy L.")
    }))

  it.effect("password reset: a mailed single-use link sets the password, revokes every session, keeps a weak try usable", () =>
    Effect.gen(function*() {
      const inbox = yield* SmtpInbox
      const { email, id, password } = DemoAccounts.member
      const sessions: Array<Session> = [yield* signInWith(email, password), yield* signInWith(email, password)]
      const unknown = yield* call("POST", ResetPath, { body: { email: "no.such.account@example.com" } })
      const known = yield* call("POST", ResetPath, { body: { email } })
      expectAccepted(unknown)
      expectAccepted(known)
      expect(known.body.data).toEqual(unknown.body.data)
      const mail = yield* inbox.waitFor(email, { subject: /Reset your/ })
      expect(mail.text).toContain("60 minutes")
      const token = tokenOf(mail.links, "/reset-password")

      const weak = yield* call("POST", CompletePath, { body: { token, password: "member12345678" } })
      expectProblem(weak, 400, "invalid-request")
      expect(weak.body.errors[0].pointer).toBe("/password")
      for (const s of sessions) expect((yield* call("GET", "/api/v1/me", { session: s })).status).toBe(200)

      const done = yield* call("POST", CompletePath, { body: { token, password: Stronger } })
      expect(done.status, done.text).toBe(200)
      // the two above, and the member's sessions of earlier tests
      expect(done.body.data.accountPublicId).toBe(id)
      expect(done.body.data.sessionsRevoked).toBeGreaterThanOrEqual(2)
      for (const s of sessions) expectProblem(yield* call("GET", "/api/v1/me", { session: s }), 401, "unauthenticated")
      expectProblem(yield* signInReply(email, password), 401, "unauthenticated")
      yield* signInWith(email, Stronger)
      expectProblem(yield* call("POST", CompletePath, { body: { token, password: Strong } }), 400, "token-invalid")
      expect((yield* auditOf(id)).map((a) => a.action)).toContain("account.password_reset")

      yield* pause(300)
      expect((yield* inbox.all).filter((m) => m.to.includes("no.such.account@example.com"))).toEqual([])
    }))

  it.effect("a reset proves the email: an unverified account can sign in after it", () =>
    Effect.gen(function*() {
      const inbox = yield* SmtpInbox
      const email = "radia@example.com"
      expectAccepted(yield* signUp({ email, password: Strong, displayName: "Radia" }))
      yield* inbox.waitFor(email, { subject: /Verify/ })
      expectAccepted(yield* call("POST", ResetPath, { body: { email } }))
      const token = tokenOf((yield* inbox.waitFor(email, { subject: /Reset/ })).links, "/reset-password")
      expect((yield* call("POST", CompletePath, { body: { token, password: Stronger } })).status).toBe(200)
      yield* signInWith(email, Stronger)
    }))

  // these move the server's clock: last in this layer
  it.effect("links expire: verification after EMAIL_VERIFICATION_TTL_HOURS, reset after PASSWORD_RESET_TTL_MINUTES", () =>
    Effect.gen(function*() {
      const inbox = yield* SmtpInbox
      const email = "barbara@example.com"
      expectAccepted(yield* signUp({ email, password: Strong, displayName: "Barbara" }))
      const verification = tokenOf((yield* inbox.waitFor(email, { subject: /Verify/ })).links, "/verify-email")
      expectAccepted(yield* call("POST", ResetPath, { body: { email: DemoAccounts.owner.email } }))
      const reset = tokenOf((yield* inbox.waitFor(DemoAccounts.owner.email, { subject: /Reset/ })).links, "/reset-password")

      open.clock.advance(60 * 60_000 + 1000)
      expectProblem(yield* call("POST", CompletePath, { body: { token: reset, password: Stronger } }), 400, "token-invalid")
      open.clock.advance(47 * 3600_000 - 2000)
      // still within 48 hours: verifies
      expect((yield* call("POST", VerifyPath, { body: { token: verification } })).status).toBe(200)

      const later = "barbara.2@example.com"
      expectAccepted(yield* signUp({ email: later, password: Strong, displayName: "Barbara" }))
      const token = tokenOf((yield* inbox.waitFor(later, { subject: /Verify/ })).links, "/verify-email")
      open.clock.advance(48 * 3600_000 + 1000)
      expectProblem(yield* call("POST", VerifyPath, { body: { token } }), 400, "token-invalid")
      expectProblem(yield* signInReply(later, Strong), 403, "email-not-verified")
    }))
})

const invitationOnly = makeMailTestServer({
  accounts: { ...testConfig().accounts, signUp: "invitation" },
  budgets: { ...testConfig().budgets, mailRecipient: { limit: 3, windowSeconds: 3600 } }
})

layer(invitationOnly.layer, { timeout: 120_000 })("sign-up (SIGN_UP=invitation) and the mail throttle", (it) => {
  it.effect("only an address with a PENDING, unexpired invitation gets an account; others the same 202 and an 'invitation only' mail", () =>
    Effect.gen(function*() {
      const inbox = yield* SmtpInbox
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO workspace_invitations ${
        sql.insert([
          ["invited@example.com", "PENDING", "2026-07-01T00:00:00Z"],
          ["lapsed@example.com", "PENDING", "2026-05-01T00:00:00Z"],
          ["revoked@example.com", "REVOKED", "2026-07-01T00:00:00Z"]
        ].map(([email, state, expires], i) => ({
          id: `0000000c-0000-7000-8000-00000000000${i}`,
          workspace_id: DemoWorkspaces.acme.id,
          recipient_email: email!,
          role: "EDITOR",
          state: state!,
          invited_by: DemoAccounts.owner.id,
          expires_at: new Date(expires!),
          version: 1,
          created_at: TestEpoch
        })))
      }`.pipe(Effect.orDie)

      const invited = yield* signUp({ email: "Invited@Example.com", password: Strong, displayName: "Invitee" })
      expectAccepted(invited)
      const token = tokenOf((yield* inbox.waitFor("invited@example.com", { subject: /Verify/ })).links, "/verify-email")
      expect((yield* call("POST", VerifyPath, { body: { token } })).status).toBe(200)
      yield* signInWith("invited@example.com", Strong)

      for (const email of ["stranger@example.com", "lapsed@example.com", "revoked@example.com"]) {
        const reply = yield* signUp({ email, password: Strong, displayName: "Stranger" })
        expectAccepted(reply)
        expect(reply.body.data).toEqual(invited.body.data)
        const mail = yield* inbox.waitFor(email)
        expect(mail.subject).toMatch(/invitation only/)
        expect(mail.text).not.toContain("#token=")
        expectProblem(yield* signInReply(email, Strong), 401, "unauthenticated")
      }
    }))

  it.effect("mails are throttled per recipient: 429 mail-throttled with Retry-After, taken email or not", () =>
    Effect.gen(function*() {
      for (const email of ["throttled@example.com", DemoAccounts.admin.email]) {
        for (let i = 0; i < 3; i++) expectAccepted(yield* signUp({ email, password: Strong, displayName: "T" }))
        const refused = yield* signUp({ email, password: Strong, displayName: "T" })
        expectProblem(refused, 429, "mail-throttled")
        expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
        expectProblem(yield* call("POST", ResetPath, { body: { email } }), 429, "mail-throttled")
      }
    }))
})

const closed = makeTestServer({ accounts: { ...testConfig().accounts, signUp: "closed" } })

layer(closed.layer)("sign-up (SIGN_UP=closed)", (it) => {
  it.effect("answers 403 sign-up-closed; password reset still works", () =>
    Effect.gen(function*() {
      expectProblem(yield* signUp({ email: "late@example.com", password: Strong, displayName: "Late" }), 403, "sign-up-closed")
      expectAccepted(yield* call("POST", ResetPath, { body: { email: DemoAccounts.owner.email } }))
    }))
})
