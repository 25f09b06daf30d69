/**
 * Workspaces_UpdateMember, Workspaces_RemoveMember, Workspaces_LeaveWorkspace and
 * Workspaces_TransferOwnership (spec §2.12, §4.3, §5.2): role rules, access ending at once,
 * the removed member's API keys revoked, and exactly one owner, also under concurrent transfers.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const acme = DemoWorkspaces.acme.id
const memberPath = (account: string) => `/api/v1/workspaces/${acme}/members/${account}`
const { admin, member, outsider, owner } = DemoAccounts

const server = makeTestServer()

const owners = (workspaceId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ accountId: string }>`
      SELECT account_id AS "accountId" FROM workspace_members
      WHERE workspace_id = ${workspaceId} AND role = 'OWNER' AND is_workspace_owner AND state = 'ACTIVE'`
    return rows.map((r) => r.accountId)
  }).pipe(Effect.orDie)

const auditActions = (workspaceId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ action: string }>`SELECT action FROM audit_events WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`
    return rows.map((r) => r.action)
  }).pipe(Effect.orDie)

layer(server.layer, { timeout: 120_000 })("Workspace members", (it) => {
  it.effect("role changes: at the version read, never to or from OWNER, only the OWNER changes an ADMIN", () =>
    Effect.gen(function*() {
      const ownerS = yield* signIn("owner")
      expectProblem(yield* call("PATCH", memberPath(member.id), { session: ownerS, body: { role: "OWNER", expectedVersion: 1 } }), 400)
      expectProblem(yield* call("PATCH", memberPath(owner.id), { session: ownerS, body: { role: "ADMIN", expectedVersion: 1 } }), 409, "owner-fixed")
      expectProblem(yield* call("PATCH", memberPath(member.id), { session: ownerS, body: { role: "ADMIN", expectedVersion: 7 } }), 409, "version-conflict")
      expectProblem(yield* call("PATCH", memberPath(outsider.id), { session: ownerS, body: { role: "ADMIN", expectedVersion: 1 } }), 404, "member-not-found")
      const memberS = yield* signIn("member")
      expectProblem(yield* call("PATCH", memberPath(admin.id), { session: memberS, body: { role: "ADMIN", expectedVersion: 1 } }), 403, "role-required")

      const promoted = yield* call("PATCH", memberPath(member.id), { session: ownerS, body: { role: "ADMIN", expectedVersion: 1 } })
      expect(promoted.status, promoted.text).toBe(200)
      expect(promoted.body.data).toMatchObject({ accountPublicId: member.id, role: "ADMIN", state: "ACTIVE", version: 2 })
      // the ADMIN Mel may promote Ada (VIEWER) to ADMIN, but then no longer change her
      const adaAdmin = yield* call("PATCH", memberPath(admin.id), { session: memberS, body: { role: "ADMIN", expectedVersion: 1 } })
      expect(adaAdmin.status, adaAdmin.text).toBe(200)
      expectProblem(yield* call("PATCH", memberPath(admin.id), { session: memberS, body: { role: "EDITOR", expectedVersion: 2 } }), 403, "role-required")
      // the OWNER may
      const demoted = yield* call("PATCH", memberPath(admin.id), { session: ownerS, body: { role: "VIEWER", expectedVersion: 2 } })
      expect(demoted.body.data).toMatchObject({ role: "VIEWER", version: 3 })
      expect((yield* call("GET", `/api/v1/workspaces/${acme}`, { session: memberS })).body.data.role).toBe("ADMIN")
      expect(yield* auditActions(acme)).toEqual(["member.role_changed", "member.role_changed", "member.role_changed"])
    }))

  it.effect("remove: access ends at once and the member's API keys are revoked; the owner cannot be removed", () =>
    Effect.gen(function*() {
      const ownerS = yield* signIn("owner")
      const memberS = yield* signIn("member") // ADMIN since the previous test
      const key = yield* call("POST", `/api/v1/workspaces/${acme}/api-keys`, { session: memberS, body: { name: "mel", scopes: ["public:read"] } })
      expect(key.status, key.text).toBe(201)
      const ownKey = yield* call("POST", `/api/v1/workspaces/${acme}/api-keys`, { session: ownerS, body: { name: "olive", scopes: ["public:read"] } })
      expectProblem(yield* call("DELETE", memberPath(owner.id), { session: memberS, body: { expectedVersion: 1 } }), 409, "owner-fixed")
      expect((yield* call("GET", `/api/v1/workspaces/${acme}`, { session: memberS })).status).toBe(200)

      const removed = yield* call("DELETE", memberPath(member.id), { session: ownerS, body: { expectedVersion: 2 } })
      expect(removed.status, removed.text).toBe(200)
      expect(removed.body.data).toMatchObject({ accountPublicId: member.id, state: "REVOKED", version: 3 })
      expect(removed.body.data.revokedAt).not.toBeNull()
      // the same session, the very next request: not found
      expectProblem(yield* call("GET", `/api/v1/workspaces/${acme}`, { session: memberS }), 404, "workspace-not-found")
      expectProblem(yield* call("DELETE", memberPath(admin.id), { session: memberS, body: { expectedVersion: 3 } }), 404, "workspace-not-found")
      const keys = (yield* call("GET", `/api/v1/workspaces/${acme}/api-keys`, { session: ownerS })).body.data
      const stateOf = (id: string) => keys.find((k: { id?: string; publicId?: string }) => (k.id ?? k.publicId) === id)?.state
      expect(stateOf(key.body.data.apiKey.id ?? key.body.data.apiKey.publicId)).toBe("REVOKED")
      expect(stateOf(ownKey.body.data.apiKey.id ?? ownKey.body.data.apiKey.publicId)).toBe("ACTIVE")
      const read = yield* call("GET", `/api/v1/workspaces/${acme}`, { session: ownerS })
      expect(read.body.data.memberCount).toBe(2)
      expect(read.body.data.members.find((m: { accountPublicId: string }) => m.accountPublicId === member.id).state).toBe("REVOKED")
      expectProblem(yield* call("DELETE", memberPath(member.id), { session: ownerS, body: { expectedVersion: 3 } }), 404, "member-not-found")
    }))

  it.effect("leave: the owner cannot (409); a member can, and the workspace is gone for them", () =>
    Effect.gen(function*() {
      const ownerS = yield* signIn("owner")
      const leave = `/api/v1/workspaces/${acme}/leave`
      expectProblem(yield* call("POST", leave, { session: ownerS, body: { expectedVersion: 1 } }), 409, "owner-fixed")
      const adminS = yield* signIn("admin")
      expectProblem(yield* call("POST", leave, { session: adminS, body: { expectedVersion: 1 } }), 409, "version-conflict")
      const left = yield* call("POST", leave, { session: adminS, body: { expectedVersion: 3 } })
      expect(left.status, left.text).toBe(200)
      expect(left.body.data).toMatchObject({ accountPublicId: admin.id, state: "REVOKED", version: 4 })
      expectProblem(yield* call("GET", `/api/v1/workspaces/${acme}`, { session: adminS }), 404)
      expect((yield* auditActions(acme)).slice(-2)).toEqual(["member.removed", "member.left"])
    }))

  it.effect("transfer: OWNER only, to an ACTIVE member; the old owner becomes ADMIN; one owner after concurrent transfers", () =>
    Effect.gen(function*() {
      const team = DemoWorkspaces.team.id
      const path = `/api/v1/workspaces/${team}/ownership`
      const mel = yield* signIn("member") // owns Mel's Team; Otto is its EDITOR
      // Ada joins Mel's Team by its seeded invitation, so there are two candidates
      const ada = yield* signIn("admin")
      const { DemoInvitationToken } = yield* Effect.promise(() => import("../../demo/workspaces/seed.js"))
      expect((yield* call("POST", "/api/v1/invitations/accept", { session: ada, body: { token: DemoInvitationToken } })).status).toBe(200)
      expectProblem(yield* call("POST", path, { session: ada, body: { accountPublicId: admin.id, expectedVersion: 1 } }), 403, "role-required")
      expectProblem(yield* call("POST", path, { session: mel, body: { accountPublicId: owner.id, expectedVersion: 1 } }), 404, "member-not-found")
      expectProblem(yield* call("POST", path, { session: mel, body: { accountPublicId: member.id, expectedVersion: 1 } }), 409, "owner-fixed")
      expectProblem(yield* call("POST", path, { session: mel, body: { accountPublicId: admin.id, expectedVersion: 9 } }), 409, "version-conflict")

      const [toAda, toOtto] = yield* Effect.all([
        call("POST", path, { session: mel, body: { accountPublicId: admin.id, expectedVersion: 1 } }),
        call("POST", path, { session: mel, body: { accountPublicId: outsider.id, expectedVersion: 1 } })
      ], { concurrency: 2 })
      // one wins; the other finds the workspace at another version (409) or, when it runs after the
      // winner committed, the caller no longer its owner (403)
      expect([toAda.status, toOtto.status].filter((s) => s === 200), `${toAda.text} ${toOtto.text}`).toHaveLength(1)
      const winner = toAda.status === 200 ? toAda : toOtto
      const loser = toAda.status === 200 ? toOtto : toAda
      expect([409, 403]).toContain(loser.status)
      expectProblem(loser, loser.status, loser.status === 409 ? "version-conflict" : "role-required")
      const newOwner = toAda.status === 200 ? admin.id : outsider.id
      expect(winner.body.data).toMatchObject({
        workspacePublicId: team,
        version: 2,
        owner: { accountPublicId: newOwner, role: "OWNER", isWorkspaceOwner: true },
        previousOwner: { accountPublicId: member.id, role: "ADMIN", isWorkspaceOwner: false }
      })
      expect(yield* owners(team)).toEqual([newOwner])
      expect((yield* call("GET", `/api/v1/workspaces/${team}`, { session: mel })).body.data.role).toBe("ADMIN")
      // Mel is no longer the owner: a second transfer is refused
      expectProblem(yield* call("POST", path, { session: mel, body: { accountPublicId: member.id, expectedVersion: 2 } }), 403, "role-required")
      expect((yield* auditActions(team)).filter((a) => a === "workspace.ownership_transferred")).toHaveLength(1)
    }))
})
