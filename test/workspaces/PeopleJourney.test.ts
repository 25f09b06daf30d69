/**
 * People come in over HTTP, on an empty directory (no demo data) in production mode with a
 * real SMTP server: a person signs up and verifies from the mail; creates a workspace;
 * invites a second person, who signs up from the invitation's link and accepts; the owner
 * makes them EDITOR, enrolls TOTP and hands them the ownership with a TOTP step-up; a third
 * invitation expires on the engine's durable clock; the bootstrap admin (accounts:create)
 * suspends the workspace, which then answers 423; the audit trail lists each step.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { IdsLive } from "../../layers/Ids.js"
import { createAccount } from "../../src/accounts/AccountCreation.js"
import { totpCode } from "../../src/accounts/mfa/Totp.js"
import { testConfig } from "../support/config.js"
import { call, expectProblem, type Session, signInWith } from "../support/http.js"
import { SmtpInbox } from "../support/smtp.js"
import { makeMailTestServer, testDb } from "../support/TestServer.js"
import { waitFor } from "../support/waitFor.js"

const minute = 60_000
const day = 24 * 60 * minute

const server = makeMailTestServer({
  environment: "production",
  // sessions outlive the invitation's day, so the people stay signed in across it
  sessionTtlSeconds: 2 * 24 * 3600,
  workspaces: { ...testConfig().workspaces, invitationTtlDays: 1 }
}, { db: testDb(true) })

/** The `#token=` of the mail's link to `path`. */
const linkToken = (mail: { readonly links: ReadonlyArray<string> }, path: string) => {
  const link = mail.links.find((l) => l.startsWith(`https://directory.test${path}#token=`))
  expect(link, mail.links.join(", ")).toBeDefined()
  return link!.split("#token=")[1]!
}

/** A TOTP code of `secret` at the server's clock, `steps` time steps away. */
const codeAt = (secret: string, steps = 0) => totpCode(secret, new Date(server.clock.unsafeCurrentTimeMillis() + steps * 30_000))

/** Signs up, verifies from the mailed link and signs in; returns the session. */
const join = (email: string, password: string, displayName: string) =>
  Effect.gen(function*() {
    const inbox = yield* SmtpInbox
    const signedUp = yield* call("POST", "/api/v1/auth/sign-up", { body: { email, password, displayName } })
    expect(signedUp.status, signedUp.text).toBe(202)
    const mail = yield* inbox.waitFor(email, { subject: /verify/i })
    const verified = yield* call("POST", "/api/v1/auth/email-verification", { body: { token: linkToken(mail, "/verify-email") } })
    expect(verified.status, verified.text).toBe(200)
    return yield* signInWith(email, password)
  })

/** Enrolls and confirms TOTP for `session`; returns the secret. */
const enrollTotp = (session: Session) =>
  Effect.gen(function*() {
    const enrolled = yield* call("POST", "/api/v1/me/mfa/totp", { session })
    expect(enrolled.status, enrolled.text).toBe(200)
    const secret: string = enrolled.body.data.secret
    const confirmed = yield* call("POST", "/api/v1/me/mfa/totp/confirm", { session, body: { code: codeAt(secret, -1) } })
    expect(confirmed.status, confirmed.text).toBe(200)
    expect(confirmed.body.data.recoveryCodes).toHaveLength(10)
    return secret
  })

layer(server.layer, { timeout: 300_000 })("people join over HTTP", (it) => {
  it.effect("sign-up, a workspace, an invited member, roles, MFA step-up, expiry, suspension, the audit trail", () =>
    Effect.gen(function*() {
      const inbox = yield* SmtpInbox

      // 1. Ada signs up and verifies through the mail; she creates a workspace
      const ada = yield* join("ada@example.com", "vivid-otter-marble-92", "Ada")
      const created = yield* call("POST", "/api/v1/workspaces", { session: ada, body: { name: "Analytical Engines" } })
      expect(created.status, created.text).toBe(201)
      const workspaceId: string = created.body.data.publicId
      expect(created.body.data.role).toBe("OWNER")
      const workspacePath = `/api/v1/workspaces/${workspaceId}`

      // 2. she invites Bob, who has no account: he signs up from the link's address and accepts
      const invited = yield* call("POST", `${workspacePath}/invitations`, {
        session: ada,
        body: { recipientEmail: "bob@example.com", role: "VIEWER" }
      })
      expect(invited.status, invited.text).toBe(201)
      const invitationToken = linkToken(yield* inbox.waitFor("bob@example.com", { subject: /invited you/ }), "/invitations/accept")
      const bob = yield* join("bob@example.com", "quiet-lantern-harbor-57", "Bob")
      const accepted = yield* call("POST", "/api/v1/invitations/accept", { session: bob, body: { token: invitationToken } })
      expect(accepted.status, accepted.text).toBe(200)
      expect(accepted.body.data.member.role).toBe("VIEWER")

      // 3. Ada makes him EDITOR
      const promoted = yield* call("PATCH", `${workspacePath}/members/${bob.accountId}`, {
        session: ada,
        body: { role: "EDITOR", expectedVersion: accepted.body.data.member.version }
      })
      expect(promoted.status, promoted.text).toBe(200)
      expect(promoted.body.data.role).toBe("EDITOR")

      // 4. Ada enrolls TOTP; later, her sign-in too old, the transfer needs a step-up, which TOTP gives
      const secret = yield* enrollTotp(ada)
      server.clock.advance(20 * minute)
      const version: number = (yield* call("GET", workspacePath, { session: ada })).body.data.version
      const transfer = () =>
        call("POST", `${workspacePath}/ownership`, { session: ada, body: { accountPublicId: bob.accountId, expectedVersion: version } })
      expectProblem(yield* transfer(), 403, "reauthentication-required")
      const steppedUp = yield* call("POST", "/api/v1/auth/mfa", { session: ada, body: { code: codeAt(secret) } })
      expect(steppedUp.status, steppedUp.text).toBe(200)
      const transferred = yield* transfer()
      expect(transferred.status, transferred.text).toBe(200)
      const roles = (yield* call("GET", workspacePath, { session: bob })).body.data.members
        .map((m: { displayName: string; role: string; isWorkspaceOwner: boolean }) => [m.displayName, m.role, m.isWorkspaceOwner])
      expect(roles).toEqual([["Ada", "ADMIN", false], ["Bob", "OWNER", true]])

      // 5. a third invitation expires on the engine's durable clock
      const third = yield* call("POST", `${workspacePath}/invitations`, {
        session: bob,
        body: { recipientEmail: "carol@example.com", role: "ANALYST" }
      })
      expect(third.status, third.text).toBe(201)
      server.clock.advance(day + minute)
      yield* waitFor("the third invitation to expire", Effect.map(call("GET", workspacePath, { session: bob }), (reply) => {
        const invitation = reply.body.data.invitations.find((i: { publicId: string }) => i.publicId === third.body.data.publicId)
        return invitation.state === "EXPIRED" ? invitation : undefined
      }), 30_000)

      // 6. the audit trail lists each step, newest first
      const audit = yield* call("GET", `${workspacePath}/audit-events?limit=100`, { session: bob })
      expect(audit.status, audit.text).toBe(200)
      expect(audit.body.data.map((e: { action: string }) => e.action).reverse()).toEqual([
        "workspace.created",
        "invitation.created",
        "invitation.accepted",
        "member.role_changed",
        "workspace.ownership_transferred",
        "invitation.created",
        "invitation.expired"
      ])
      expect(audit.text).not.toContain(invitationToken)

      // 7. the first admin is bootstrapped by accounts:create; with a second factor it suspends the workspace
      yield* createAccount({
        email: "root@example.com",
        password: "sturdy-granite-falcon-31",
        displayName: "Root",
        workspaceName: "Operations"
      }).pipe(Effect.provide(IdsLive), Effect.orDie)
      const admin = yield* signInWith("root@example.com", "sturdy-granite-falcon-31")
      const adminSecret = yield* enrollTotp(admin)
      const suspended = yield* call("POST", `/api/v1/admin/workspaces/${workspaceId}/suspend`, {
        session: admin,
        body: { reason: "Payment dispute under review." }
      })
      expect(suspended.status, suspended.text).toBe(200)
      expect(adminSecret).not.toBe(secret)
      expectProblem(yield* call("GET", workspacePath, { session: bob }), 423, "policy-locked")
    }))
})
