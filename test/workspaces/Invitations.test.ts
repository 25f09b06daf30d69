/**
 * Workspaces_CreateInvitation, Workspaces_RevokeInvitation, Workspaces_AcceptInvitation (spec
 * §2.12, §4.3): the mailed link (read from the in-process SMTP server), acceptance by the
 * invited account only, expiry on the engine's durable clock, and the refusals.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { SmtpInbox } from "../support/smtp.js"
import { makeMailTestServer, TestEpoch } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

const acme = DemoWorkspaces.acme.id
const invitationsPath = `/api/v1/workspaces/${acme}/invitations`
const dayMs = 86_400_000

const server = makeMailTestServer()
const advance = (ms: number) => server.clock.advance(ms)

/** The token of the invitation link of the `skip`-th later mail to `to`. */
const tokenFromMail = (to: string, skip = 0) =>
  Effect.gen(function*() {
    const inbox = yield* SmtpInbox
    const mail = yield* inbox.waitFor(to, { subject: /invited you/, skip })
    const link = mail.links.find((l) => l.startsWith("https://directory.test/invitations/accept#token="))
    expect(link, mail.text).toBeDefined()
    return link!.split("#token=")[1]!
  })

const invitationRow = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ state: string; tokenHash: Buffer | null }>`
      SELECT state, token_hash AS "tokenHash" FROM workspace_invitations WHERE id = ${id}`
    return rows[0]!
  }).pipe(Effect.orDie)

const auditActions = (target: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ action: string }>`SELECT action FROM audit_events WHERE target_id = ${target} ORDER BY created_at, id`
    return rows.map((r) => r.action)
  }).pipe(Effect.orDie)

layer(server.layer, { timeout: 120_000 })("Workspace invitations", (it) => {
  it.effect("an invitation expires on the durable clock; its token is refused; a new one is accepted by the invited account", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const created = yield* call("POST", invitationsPath, {
        session: owner,
        body: { recipientEmail: "Outsider@Demo.Agent-Directory.dev", role: "EDITOR" }
      })
      expect(created.status, created.text).toBe(201)
      const invitation = created.body.data
      expect(invitation).toMatchObject({
        recipientEmail: "Outsider@Demo.Agent-Directory.dev",
        role: "EDITOR",
        state: "PENDING",
        invitedBy: { publicId: DemoAccounts.owner.id, displayName: DemoAccounts.owner.displayName },
        acceptedByAccountPublicId: null,
        expiresAt: new Date(TestEpoch.getTime() + 14 * dayMs).toISOString(),
        version: 1,
        createdAt: TestEpoch.toISOString()
      })
      const token = yield* tokenFromMail(DemoAccounts.outsider.email)
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      // stored only as its SHA-256
      const row = yield* invitationRow(invitation.publicId)
      expect(row.tokenHash?.length).toBe(32)
      expect(row.tokenHash?.toString("latin1")).not.toContain(token)
      // a second invitation to the same address (another case) while PENDING: 409
      expectProblem(
        yield* call("POST", invitationsPath, { session: owner, body: { recipientEmail: "outsider@demo.agent-directory.dev", role: "VIEWER" } }),
        409,
        "invitation-pending"
      )

      advance(14 * dayMs)
      const outsider = yield* signIn("outsider")
      // refused as expired whether or not the workflow has run yet
      expectProblem(yield* call("POST", "/api/v1/invitations/accept", { session: outsider, body: { token } }), 410, "invitation-expired")
      yield* waitFor("the invitation to expire", until(invitationRow(invitation.publicId), (r) => r.state === "EXPIRED"), 20_000)
      expect(yield* auditActions(invitation.publicId)).toEqual(["invitation.created", "invitation.expired"])
      expectProblem(yield* call("POST", "/api/v1/invitations/accept", { session: outsider, body: { token } }), 410, "invitation-expired")

      // invited again: the new link works for the invited account only
      const owner2 = yield* signIn("owner")
      const again = yield* call("POST", invitationsPath, { session: owner2, body: { recipientEmail: DemoAccounts.outsider.email, role: "ANALYST" } })
      expect(again.status, again.text).toBe(201)
      const token2 = yield* tokenFromMail(DemoAccounts.outsider.email, 1)
      expect(token2).not.toBe(token)
      const wrong = yield* call("POST", "/api/v1/invitations/accept", { session: owner2, body: { token: token2 } })
      expectProblem(wrong, 403, "invitation-for-another-account")
      expect(wrong.text).not.toContain(DemoAccounts.outsider.email)
      expectProblem(yield* call("POST", "/api/v1/invitations/accept", { session: outsider, body: { token: "x".repeat(43) } }), 404, "invitation-not-found")
      expectProblem(yield* call("GET", `/api/v1/workspaces/${acme}`, { session: outsider }), 404)
      const accepted = yield* call("POST", "/api/v1/invitations/accept", { session: outsider, body: { token: token2 } })
      expect(accepted.status, accepted.text).toBe(200)
      expect(accepted.body.data).toMatchObject({
        workspacePublicId: acme,
        member: { accountPublicId: DemoAccounts.outsider.id, role: "ANALYST", state: "ACTIVE", isWorkspaceOwner: false, version: 1 }
      })
      const read = yield* call("GET", `/api/v1/workspaces/${acme}`, { session: outsider })
      expect(read.status, read.text).toBe(200)
      expect(read.body.data.role).toBe("ANALYST")
      expect(read.body.data.invitations.find((i: { publicId: string }) => i.publicId === again.body.data.publicId)).toMatchObject({
        state: "ACCEPTED",
        acceptedByAccountPublicId: DemoAccounts.outsider.id,
        version: 2
      })
      // single use
      expectProblem(yield* call("POST", "/api/v1/invitations/accept", { session: outsider, body: { token: token2 } }), 409, "invitation-not-pending")
      // now a member: inviting the address again is 409
      expectProblem(
        yield* call("POST", invitationsPath, { session: owner2, body: { recipientEmail: DemoAccounts.outsider.email, role: "VIEWER" } }),
        409,
        "already-member"
      )
      expect(yield* auditActions(again.body.data.publicId)).toEqual(["invitation.created", "invitation.accepted"])
    }))

  it.effect("revoke: PENDING → REVOKED at the version read; the link no longer works", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const created = (yield* call("POST", invitationsPath, { session: owner, body: { recipientEmail: "someone@example.com", role: "VIEWER" } }))
        .body.data
      const path = `${invitationsPath}/${created.publicId}`
      expectProblem(yield* call("DELETE", path, { session: owner, body: { expectedVersion: 2 } }), 409, "version-conflict")
      const member = yield* signIn("member")
      expectProblem(yield* call("DELETE", path, { session: member, body: { expectedVersion: 1 } }), 403, "role-required")
      const revoked = yield* call("DELETE", path, { session: owner, body: { expectedVersion: 1 } })
      expect(revoked.status, revoked.text).toBe(200)
      expect(revoked.body.data).toMatchObject({ publicId: created.publicId, state: "REVOKED", version: 2 })
      expect(revoked.body.data.revokedAt).toBe(created.createdAt) // the clock stands still
      expectProblem(yield* call("DELETE", path, { session: owner, body: { expectedVersion: 2 } }), 409, "invitation-not-pending")
      expectProblem(
        yield* call("DELETE", `${invitationsPath}/00000000-0000-4000-8000-000000000000`, { session: owner, body: { expectedVersion: 1 } }),
        404,
        "invitation-not-found"
      )
      expect(yield* auditActions(created.publicId)).toEqual(["invitation.created", "invitation.revoked"])
    }))

  it.effect("create refuses OWNER, a non-email, other roles than OWNER/ADMIN, non-members and a locked workspace", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      expectProblem(yield* call("POST", invitationsPath, { session: owner, body: { recipientEmail: "a@example.com", role: "OWNER" } }), 400)
      expectProblem(yield* call("POST", invitationsPath, { session: owner, body: { recipientEmail: "not-an-email", role: "VIEWER" } }), 400)
      expectProblem(
        yield* call("POST", invitationsPath, { session: owner, body: { recipientEmail: DemoAccounts.member.email, role: "VIEWER" } }),
        409,
        "already-member"
      )
      const member = yield* signIn("member")
      expectProblem(yield* call("POST", invitationsPath, { session: member, body: { recipientEmail: "b@example.com", role: "VIEWER" } }), 403, "role-required")
      const stranger = yield* signIn("outsider")
      const foreign = `/api/v1/workspaces/${DemoWorkspaces.outsider.id}/invitations`
      expectProblem(yield* call("POST", foreign, { session: owner, body: { recipientEmail: "c@example.com", role: "VIEWER" } }), 404, "workspace-not-found")
      expect((yield* call("POST", foreign, { session: stranger, body: { recipientEmail: "c@example.com", role: "VIEWER" } })).status).toBe(201)
      const locked = `/api/v1/workspaces/${DemoWorkspaces.locked.id}/invitations`
      expectProblem(yield* call("POST", locked, { session: owner, body: { recipientEmail: "d@example.com", role: "VIEWER" } }), 423)
    }))
})
