/**
 * The second factor (src/accounts/mfa; spec §5.2 "recent authentication or MFA") through
 * the HTTP stack: TOTP enrollment and confirmation, the half signed-in session that only
 * Accounts_VerifyMfa completes, single-use TOTP steps and recovery codes, regenerating and
 * disabling, step-up for sensitive actions, throttling, the audit trail, and administrators
 * needing a confirmed second factor.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { withoutRequestFields } from "../auth/support.js"
import { call, expectProblem, type Session, signIn, signInWith } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoAccounts, DemoAdminMfa } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { totpCode } from "../../src/accounts/mfa/Totp.js"
import type { ManualClock } from "../../layers/Clock.js"

const EnrollPath = "/api/v1/me/mfa/totp"
const ConfirmPath = "/api/v1/me/mfa/totp/confirm"
const DisablePath = "/api/v1/me/mfa/totp/disable"
const CodesPath = "/api/v1/me/mfa/recovery-codes"
const VerifyPath = "/api/v1/auth/mfa"
const RecoveryCodePattern = /^[a-z2-9]{5}-[a-z2-9]{5}$/

/** The TOTP code of `secret` `steps` time steps from the server's clock. */
const codeAt = (clock: ManualClock, secret: string, steps = 0) =>
  totpCode(secret, new Date(clock.unsafeCurrentTimeMillis() + steps * 30_000))

/** Signs `account` in with its password only: the session stays half signed in when it has a second factor. */
const passwordOnly = (account: keyof typeof DemoAccounts) =>
  signInWith(DemoAccounts[account].email, DemoAccounts[account].password, { mfa: false })

/** Enrolls and confirms TOTP for `session` (previous step's code); returns the secret and the recovery codes. */
const enable = (session: Session, clock: ManualClock) =>
  Effect.gen(function*() {
    const enrolled = yield* call("POST", EnrollPath, { session })
    expect(enrolled.status, enrolled.text).toBe(200)
    const secret: string = enrolled.body.data.secret
    const confirmed = yield* call("POST", ConfirmPath, { session, body: { code: codeAt(clock, secret, -1) } })
    expect(confirmed.status, confirmed.text).toBe(200)
    return { secret, codes: confirmed.body.data.recoveryCodes as ReadonlyArray<string> }
  })

const server = makeTestServer()

layer(server.layer)("TOTP enrollment, sign-in with a second factor, recovery codes", (it) => {
  it.effect("enroll → confirm → sign-in half → verify → full; replayed steps and used recovery codes refused; audited", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const clock = server.clock
      const member = yield* signIn("member")

      // enrollment: the secret, URI and QR code once; a replay never shows them again
      const key = randomUUID()
      const enrolled = yield* call("POST", EnrollPath, { session: member, idempotencyKey: key })
      expect(enrolled.status, enrolled.text).toBe(200)
      const { secret, otpauthUri, qrSvg } = enrolled.body.data
      expect(enrolled.body.data.state).toBe("PENDING")
      expect(enrolled.body.data.delivery).toBe("SHOWN_ONCE")
      expect(secret).toMatch(/^[A-Z2-7]{32}$/)
      expect(otpauthUri).toBe(
        `otpauth://totp/Agent%20Directory:member%40demo.agent-directory.dev?secret=${secret}&issuer=Agent%20Directory`
      )
      expect(qrSvg).toMatch(/<svg[\s\S]*<\/svg>\s*$/)
      const replay = yield* call("POST", EnrollPath, { session: member, idempotencyKey: key })
      expect(replay.status, replay.text).toBe(200)
      expect(replay.body.data).toEqual({ state: "PENDING", secret: null, otpauthUri: null, qrSvg: null, delivery: "ALREADY_SHOWN" })
      expect(replay.text).not.toContain(secret)

      // stored sealed, bound to the account
      const [stored] = yield* sql<{ secret_sealed: string; state: string }>`
        SELECT secret_sealed, state FROM mfa_totp WHERE account_id = ${member.accountId}`
      expect(stored!.state).toBe("PENDING")
      expect(stored!.secret_sealed).toMatch(/^v1\.app\./)
      expect(stored!.secret_sealed).not.toContain(secret)

      // a pending enrollment does not change sign-in
      const early = yield* call("POST", "/api/v1/auth/sign-in", { body: { email: DemoAccounts.member.email, password: DemoAccounts.member.password } })
      expect(early.body.data.mfaRequired).toBe(false)

      // a wrong code names the field, never the value
      const wrong = yield* call("POST", ConfirmPath, { session: member, body: { code: codeAt(clock, secret, 5) } })
      expectProblem(wrong, 400, "invalid-request")
      expect(wrong.body.errors).toEqual([{ in: "body", pointer: "/code", detail: "is not a valid current code" }])

      // confirmation with the previous step's code (±1 step): ten recovery codes, once
      const confirmKey = randomUUID()
      const previous = codeAt(clock, secret, -1)
      const confirmed = yield* call("POST", ConfirmPath, { session: member, idempotencyKey: confirmKey, body: { code: previous } })
      expect(confirmed.status, confirmed.text).toBe(200)
      expect(confirmed.body.data.state).toBe("ENABLED")
      const codes: ReadonlyArray<string> = confirmed.body.data.recoveryCodes
      expect(codes).toHaveLength(10)
      expect(new Set(codes).size).toBe(10)
      for (const code of codes) expect(code).toMatch(RecoveryCodePattern)
      const confirmReplay = yield* call("POST", ConfirmPath, { session: member, idempotencyKey: confirmKey, body: { code: previous } })
      expect(confirmReplay.body.data).toEqual({ state: "ENABLED", recoveryCodes: null, delivery: "ALREADY_SHOWN" })
      const hashes = yield* sql<{ code_hash: Uint8Array }>`SELECT code_hash FROM mfa_recovery_codes WHERE account_id = ${member.accountId}`
      expect(hashes).toHaveLength(10)
      expect(hashes.map((h) => Buffer.from(h.code_hash).toString("utf8"))).not.toContain(codes[0])
      // enrolling again while enabled
      expectProblem(yield* call("POST", EnrollPath, { session: member }), 409, "mfa-already-enabled")

      // sign-in now opens a half signed-in session: everything but Accounts_VerifyMfa answers the one 401
      const half = yield* passwordOnly("member")
      const signInReply = yield* call("POST", "/api/v1/auth/sign-in", { body: { email: DemoAccounts.member.email, password: DemoAccounts.member.password } })
      expect(signInReply.body.data.mfaRequired).toBe(true)
      const anonymous = yield* call("GET", "/api/v1/me")
      for (const reply of [
        yield* call("GET", "/api/v1/me", { session: half }),
        yield* call("GET", "/api/v1/me/sessions", { session: half }),
        yield* call("POST", EnrollPath, { session: half }),
        yield* call("POST", DisablePath, { session: half, body: { code: codes[0] } })
      ]) {
        expectProblem(reply, 401, "unauthenticated")
        expect(withoutRequestFields(reply.body)).toEqual(withoutRequestFields(anonymous.body))
      }
      // Accounts_VerifyMfa is a session command: CSRF token
      expectProblem(yield* call("POST", VerifyPath, { session: half, csrf: null, body: { code: codeAt(clock, secret) } }), 403, "csrf-token-invalid")
      // the step confirmation used cannot be used again
      expectProblem(yield* call("POST", VerifyPath, { session: half, body: { code: previous } }), 400, "invalid-request")
      const verified = yield* call("POST", VerifyPath, { session: half, body: { code: codeAt(clock, secret) } })
      expect(verified.status, verified.text).toBe(200)
      expect(verified.body.data).toEqual({
        sessionId: half.sessionId,
        authenticatedAt: new Date(clock.unsafeCurrentTimeMillis()).toISOString(),
        method: "TOTP",
        recoveryCodesLeft: 10
      })
      expect((yield* call("GET", "/api/v1/me", { session: half })).status).toBe(200)

      // a replayed TOTP code on another session
      const second = yield* passwordOnly("member")
      expectProblem(yield* call("POST", VerifyPath, { session: second, body: { code: codeAt(clock, secret) } }), 400, "invalid-request")
      // a recovery code, once (case and hyphen ignored)
      const recovered = yield* call("POST", VerifyPath, { session: second, body: { code: codes[0]!.toUpperCase().replace("-", " ") } })
      expect(recovered.status, recovered.text).toBe(200)
      expect(recovered.body.data.method).toBe("RECOVERY_CODE")
      expect(recovered.body.data.recoveryCodesLeft).toBe(9)
      const third = yield* passwordOnly("member")
      expectProblem(yield* call("POST", VerifyPath, { session: third, body: { code: codes[0] } }), 400, "invalid-request")
      expectProblem(yield* call("GET", "/api/v1/me", { session: third }), 401, "unauthenticated")

      // regenerating: ten new codes, the old ones dead
      const regenerated = yield* call("POST", CodesPath, { session: half, body: { code: codes[1] } })
      expect(regenerated.status, regenerated.text).toBe(200)
      const fresh: ReadonlyArray<string> = regenerated.body.data.recoveryCodes
      expect(fresh).toHaveLength(10)
      expect(fresh.filter((c) => codes.includes(c))).toEqual([])
      expectProblem(yield* call("POST", VerifyPath, { session: third, body: { code: codes[2] } }), 400, "invalid-request")
      const withFresh = yield* call("POST", VerifyPath, { session: third, body: { code: fresh[0] } })
      expect(withFresh.status, withFresh.text).toBe(200)

      // disabling needs a valid code; then sign-in asks no second factor
      expectProblem(yield* call("POST", DisablePath, { session: half, body: { code: "abcde-fghij" } }), 400, "invalid-request")
      clock.advance(30_000)
      const disabled = yield* call("POST", DisablePath, { session: half, body: { code: codeAt(clock, secret, 1) } })
      expect(disabled.status, disabled.text).toBe(200)
      expect(disabled.body.data).toEqual({ state: "DISABLED" })
      const after = yield* call("POST", "/api/v1/auth/sign-in", { body: { email: DemoAccounts.member.email, password: DemoAccounts.member.password } })
      expect(after.body.data.mfaRequired).toBe(false)
      expectProblem(yield* call("POST", DisablePath, { session: half, body: { code: fresh[1] } }), 409, "mfa-not-enabled")
      expectProblem(yield* call("POST", VerifyPath, { session: half, body: { code: fresh[1] } }), 409, "mfa-not-enabled")
      const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM mfa_recovery_codes WHERE account_id = ${member.accountId}`
      expect(n).toBe(0)

      // the audit trail: account-level events, no secret
      const events = yield* sql<{ action: string; workspace_id: string | null; target_id: string; details: unknown }>`
        SELECT action, workspace_id, target_id, details FROM audit_events
        WHERE actor_account_id = ${member.accountId} AND action LIKE 'mfa.%' ORDER BY created_at, id`
      expect(events.map((e) => e.action)).toEqual([
        "mfa.totp_enrolled",
        "mfa.totp_enabled",
        "mfa.recovery_code_used",
        "mfa.recovery_code_used",
        "mfa.recovery_codes_regenerated",
        "mfa.recovery_code_used",
        "mfa.totp_disabled"
      ])
      for (const e of events) {
        expect(e.workspace_id).toBeNull()
        expect(e.target_id).toBe(member.accountId)
        const text = JSON.stringify(e.details)
        expect(text).not.toContain(secret)
        for (const code of [...codes, ...fresh]) expect(text).not.toContain(code)
      }
    }))

  it.effect("step-up: a fresh second factor lets a stale session's sensitive action pass", () =>
    Effect.gen(function*() {
      const clock = server.clock
      const owner = yield* signIn("owner")
      const { secret } = yield* enable(owner, clock)
      const keysPath = `/api/v1/workspaces/${DemoWorkspaces.acme.id}/api-keys`
      const body = { name: "step-up", scopes: ["public:read"] }

      clock.advance(16 * 60 * 1000)
      expectProblem(yield* call("POST", keysPath, { session: owner, body }), 403, "reauthentication-required")
      const stepUp = yield* call("POST", VerifyPath, { session: owner, body: { code: codeAt(clock, secret) } })
      expect(stepUp.status, stepUp.text).toBe(200)
      expect(stepUp.body.data.authenticatedAt).toBe(new Date(clock.unsafeCurrentTimeMillis()).toISOString())
      const created = yield* call("POST", keysPath, { session: owner, body })
      expect(created.status, created.text).toBe(201)
      const sessions = yield* call("GET", "/api/v1/me/sessions", { session: owner })
      const current = sessions.body.data.find((s: { current: boolean }) => s.current)
      expect(current.authenticatedAt).toBe(new Date(clock.unsafeCurrentTimeMillis()).toISOString())
    }))
})

const adminServer = makeTestServer()

layer(adminServer.layer)("administrators need a confirmed second factor", (it) => {
  it.effect("the demo admin signs in with TOTP; without it admin operations answer 403 mfa-required", () =>
    Effect.gen(function*() {
      const clock = adminServer.clock
      const half = yield* passwordOnly("admin")
      expectProblem(yield* call("GET", "/api/v1/admin/ads/campaigns", { session: half }), 401, "unauthenticated")
      const verified = yield* call("POST", VerifyPath, { session: half, body: { code: codeAt(clock, DemoAdminMfa.secret) } })
      expect(verified.status, verified.text).toBe(200)
      expect((yield* call("GET", "/api/v1/admin/ads/campaigns", { session: half })).status).toBe(200)

      // turned off: admin operations refuse, other operations still work
      const disabled = yield* call("POST", DisablePath, { session: half, body: { code: DemoAdminMfa.recoveryCodes[0] } })
      expect(disabled.status, disabled.text).toBe(200)
      const refused = yield* call("GET", "/api/v1/admin/ads/campaigns", { session: half })
      expectProblem(refused, 403, "mfa-required")
      expect((yield* call("GET", "/api/v1/me", { session: half })).status).toBe(200)
      const full = yield* signIn("admin")
      expectProblem(yield* call("GET", "/api/v1/admin/ads/campaigns", { session: full }), 403, "mfa-required")

      // enrolled again: admin operations again
      clock.advance(60_000)
      yield* enable(full, clock)
      expect((yield* call("GET", "/api/v1/admin/ads/campaigns", { session: full })).status).toBe(200)
    }))
})

const throttledServer = makeTestServer({
  budgets: {
    anonymous: { limit: 60_000, windowSeconds: 60 },
    apiKey: { limit: 60_000, windowSeconds: 60 },
    session: { limit: 60_000, windowSeconds: 60 },
    signInAccount: { limit: 3, windowSeconds: 900 },
    signInAddress: { limit: 10_000, windowSeconds: 900 },
    mailRecipient: { limit: 1000, windowSeconds: 3600 },
    mailClient: { limit: 10_000, windowSeconds: 3600 }
  }
})

layer(throttledServer.layer)("second-factor attempts are throttled", (it) => {
  it.effect("the account's budget of attempts, then 429 mfa-throttled with Retry-After", () =>
    Effect.gen(function*() {
      const half = yield* passwordOnly("admin")
      for (let i = 0; i < 3; i++) {
        expectProblem(yield* call("POST", VerifyPath, { session: half, body: { code: "zzzzz-zzzzz" } }), 400, "invalid-request")
      }
      const throttled = yield* call("POST", VerifyPath, { session: half, body: { code: DemoAdminMfa.recoveryCodes[0] } })
      expectProblem(throttled, 429, "mfa-throttled")
      expect(Number(throttled.headers["retry-after"])).toBeGreaterThan(0)
    }))
})
