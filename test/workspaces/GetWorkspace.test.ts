/** GET /api/v1/workspaces/{id} (Workspaces_GetWorkspace, spec §2.12, §4.3). */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Data } from "../../schema/envelope.js"
import { Workspace } from "../../schema/workspaces.js"
import { call, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { tamper } from "../support/cursor.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { demoTime } from "../../demo/common.js"
import { DemoInvitations, DemoMemberships, DemoWorkspaces } from "../../demo/workspaces/seed.js"

const server = makeTestServer()
const decodeWorkspace = Schema.decodeUnknownSync(Data(Workspace), { onExcessProperty: "error" })
const acme = DemoWorkspaces.acme
const url = (id: string, query = "") => `/api/v1/workspaces/${id}${query === "" ? "" : `?${query}`}`
const iso = (days: number, minutes = 0) => demoTime(days, minutes).toISOString()

/** Acme's members in seed order (= creation order, oldest first), in the wire shape. */
const acmeMembers = DemoMemberships.map((m, i) => [m, i] as const)
  .filter(([[workspace]]) => workspace === "acme")
  .map(([[, account, role, isOwner], i]) => ({
    accountPublicId: DemoAccounts[account].id,
    displayName: DemoAccounts[account].displayName,
    email: DemoAccounts[account].email,
    role,
    state: "ACTIVE",
    isWorkspaceOwner: isOwner,
    acceptedAt: iso(2, i),
    revokedAt: null,
    version: 1,
    createdAt: iso(2, i)
  }))

/** Acme's invitations, oldest first, in the wire shape. */
const acmeInvitations = DemoInvitations.filter((inv) => inv.workspace === "acme").map((inv) => ({
  publicId: inv.id,
  recipientEmail: inv.email,
  role: inv.role,
  state: inv.state,
  invitedBy: { publicId: DemoAccounts.owner.id, displayName: DemoAccounts.owner.displayName },
  acceptedByAccountPublicId: null,
  expiresAt: iso(inv.days + 14),
  acceptedAt: null,
  revokedAt: inv.state === "REVOKED" ? iso(inv.days + 1) : null,
  version: inv.state === "PENDING" ? 1 : 2,
  createdAt: iso(inv.days)
}))


layer(server.layer)("Workspaces_GetWorkspace", (it) => {
  it.effect("shows the owner Acme with its role, members (oldest first) and invitations", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", url(acme.id), { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("private, no-cache")
      expect(Object.keys(reply.body).sort()).toEqual(["data", "meta"])
      expectMeta(reply)
      expect(reply.body.data).toEqual({
        publicId: acme.id,
        name: acme.name,
        slug: acme.slug,
        state: "ACTIVE",
        role: "OWNER",
        isDefault: true,
        memberCount: 3,
        version: 1,
        createdAt: iso(1),
        updatedAt: iso(1),
        members: acmeMembers,
        invitations: acmeInvitations,
        membersNextCursor: null,
        invitationsNextCursor: null
      })
      expect(reply.body.data.members.map((m: { displayName: string }) => m.displayName)).toEqual([
        "Olive Owner",
        "Mel Member",
        "Ada Admin"
      ])
      expect(reply.body.data.invitations).toHaveLength(3)
      expect(() => decodeWorkspace(reply.body)).not.toThrow()
    }))

  it.effect("reports the caller's own role and default flag", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const asAdmin = yield* call("GET", url(acme.id), { session: admin })
      expect(asAdmin.status, asAdmin.text).toBe(200)
      expect(asAdmin.body.data.role).toBe("VIEWER")
      expect(asAdmin.body.data.memberCount).toBe(3)
      const member = yield* signIn("member")
      const asMember = yield* call("GET", url(acme.id), { session: member })
      expect(asMember.body.data.role).toBe("EDITOR")
      expect(asMember.body.data.members).toEqual(asAdmin.body.data.members)
    }))

  it.effect("limit=1 returns one member and one invitation plus both cursors", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", url(acme.id, "limit=1"), { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data.members).toEqual([acmeMembers[0]])
      expect(reply.body.data.invitations).toEqual([acmeInvitations[0]])
      expect(reply.body.data.memberCount).toBe(3)
      expect(typeof reply.body.data.membersNextCursor).toBe("string")
      expect(typeof reply.body.data.invitationsNextCursor).toBe("string")
      expect(reply.body.data.membersNextCursor).not.toBe(reply.body.data.invitationsNextCursor)
      expect(reply.body.data.membersNextCursor.length).toBeLessThanOrEqual(4096)
      expect(() => decodeWorkspace(reply.body)).not.toThrow()
    }))

  it.effect("follows membersCursor through every member (invitations restart on their first page)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const members: Array<unknown> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const query: string = cursor === null ? "limit=1" : `limit=1&membersCursor=${encodeURIComponent(cursor)}`
        const reply = yield* call("GET", url(acme.id, query), { session: owner })
        expect(reply.status, reply.text).toBe(200)
        expect(reply.body.data.members).toHaveLength(1)
        expect(reply.body.data.invitations).toEqual([acmeInvitations[0]])
        members.push(...reply.body.data.members)
        cursor = reply.body.data.membersNextCursor
        pages++
      } while (cursor !== null && pages < 10)
      expect(pages).toBe(3)
      expect(members).toEqual(acmeMembers)
    }))

  it.effect("follows invitationsCursor through every invitation", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const first = yield* call("GET", url(acme.id, "limit=2"), { session: owner })
      expect(first.body.data.invitations).toEqual(acmeInvitations.slice(0, 2))
      expect(first.body.data.members).toEqual(acmeMembers.slice(0, 2))
      const both = `limit=2&membersCursor=${encodeURIComponent(first.body.data.membersNextCursor)}` +
        `&invitationsCursor=${encodeURIComponent(first.body.data.invitationsNextCursor)}`
      const second = yield* call("GET", url(acme.id, both), { session: owner })
      expect(second.status, second.text).toBe(200)
      expect(second.body.data.members).toEqual(acmeMembers.slice(2))
      expect(second.body.data.invitations).toEqual(acmeInvitations.slice(2))
      expect(second.body.data.membersNextCursor).toBeNull()
      expect(second.body.data.invitationsNextCursor).toBeNull()
    }))

  it.effect("rejects an invitations cursor passed as membersCursor, and vice versa (bound to its list)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const first = yield* call("GET", url(acme.id, "limit=1"), { session: owner })
      const invitationsCursor = encodeURIComponent(first.body.data.invitationsNextCursor)
      const membersCursor = encodeURIComponent(first.body.data.membersNextCursor)
      const swapped = yield* call("GET", url(acme.id, `limit=1&membersCursor=${invitationsCursor}`), { session: owner })
      expectProblem(swapped, 400, "invalid-cursor")
      expect(swapped.body.errors[0].pointer).toBe("/membersCursor")
      const swappedBack = yield* call("GET", url(acme.id, `limit=1&invitationsCursor=${membersCursor}`), { session: owner })
      expectProblem(swappedBack, 400, "invalid-cursor")
      expect(swappedBack.body.errors[0].pointer).toBe("/invitationsCursor")
    }))

  it.effect("rejects a cursor issued to another caller", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const member = yield* signIn("member")
      const first = yield* call("GET", url(acme.id, "limit=1"), { session: owner })
      const cursor = encodeURIComponent(first.body.data.membersNextCursor)
      const reply = yield* call("GET", url(acme.id, `limit=1&membersCursor=${cursor}`), { session: member })
      expectProblem(reply, 400, "invalid-cursor")
      expect(reply.body.errors[0].pointer).toBe("/membersCursor")
    }))

  it.effect("rejects a tampered cursor", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const first = yield* call("GET", url(acme.id, "limit=1"), { session: owner })
      const cursor: string = first.body.data.membersNextCursor
      const dot = cursor.indexOf(".")
      for (const at of [0, dot + 1, dot + 5]) {
        const bad = encodeURIComponent(tamper(cursor, at))
        const reply = yield* call("GET", url(acme.id, `limit=1&membersCursor=${bad}`), { session: owner })
        expectProblem(reply, 400, "invalid-cursor")
        expect(reply.body.errors[0].pointer).toBe("/membersCursor")
      }
      const invitations: string = first.body.data.invitationsNextCursor
      const bad = encodeURIComponent(tamper(invitations, 1))
      const reply = yield* call("GET", url(acme.id, `limit=1&invitationsCursor=${bad}`), { session: owner })
      expectProblem(reply, 400, "invalid-cursor")
      expect(reply.body.errors[0].pointer).toBe("/invitationsCursor")
    }))

  it.effect("answers a non-member and a missing workspace with the same 404 (existence not revealed)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const foreign = yield* call("GET", url(DemoWorkspaces.outsider.id), { session: owner })
      const missing = yield* call("GET", url("5f0c8a3e-1b2d-4c6e-8f00-123456789abc"), { session: owner })
      expectProblem(foreign, 404)
      expectProblem(missing, 404)
      expect(foreign.body.type).toBe(missing.body.type)
      expect(foreign.body.title).toBe(missing.body.title)
      expect(Object.keys(foreign.body).sort()).toEqual(Object.keys(missing.body).sort())
      expect(foreign.text).not.toContain(DemoWorkspaces.outsider.name)
      expect(foreign.text).not.toContain(DemoWorkspaces.outsider.slug)
      // and the outsider, who is not a member of Acme, cannot see it either
      const outsider = yield* signIn("outsider")
      const acmeForOutsider = yield* call("GET", url(acme.id), { session: outsider })
      expectProblem(acmeForOutsider, 404)
      expect(acmeForOutsider.body.type).toBe(missing.body.type)
      const own = yield* call("GET", url(DemoWorkspaces.outsider.id), { session: outsider })
      expect(own.status, own.text).toBe(200)
      expect(own.body.data.role).toBe("OWNER")
      expect(own.body.data.invitations).toEqual([])
    }))

  it.effect("answers a policy-locked workspace with 423", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", url(DemoWorkspaces.locked.id), { session: owner })
      expectProblem(reply, 423, "policy-locked")
      expect(reply.text).not.toContain(DemoWorkspaces.locked.name)
      // a non-member still gets the 404, not the lock
      const outsider = yield* signIn("outsider")
      const hidden = yield* call("GET", url(DemoWorkspaces.locked.id), { session: outsider })
      expectProblem(hidden, 404)
    }))

  it.effect("rejects a path id that is not a uuid and out-of-range limits with 400", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      for (const id of ["acme-agents", "123", `${acme.id}0`, "00000000-0000-0000-0000-00000000000g"]) {
        const reply = yield* call("GET", url(id), { session: owner })
        expectProblem(reply, 400)
        expect(reply.body.errors.some((e: { in: string }) => e.in === "path"), id).toBe(true)
      }
      for (const limit of ["0", "101", "x"]) {
        const reply = yield* call("GET", url(acme.id, `limit=${limit}`), { session: owner })
        expectProblem(reply, 400)
        expect(reply.body.errors[0].pointer).toBe("/limit")
      }
      const long = yield* call("GET", url(acme.id, `membersCursor=${"A".repeat(4097)}`), { session: owner })
      expectProblem(long, 400)
      expect(long.body.errors[0].pointer).toBe("/membersCursor")
    }))

  it.effect("needs a session (401)", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", url(acme.id))
      expectProblem(reply, 401, "unauthenticated")
      expect(reply.text).not.toContain(acme.name)
    }))
})

/** A server where the outsider's workspace has 55 invitations, several sharing one timestamp. */
layer(makeTestServer().layer)("Workspaces_GetWorkspace with long lists", (it) => {
  const seedInvitations = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (let n = 1; n <= 55; n++) {
      const id = `01900098-0000-7000-8000-${n.toString(16).padStart(12, "0")}`
      const at = `2026-02-${String(1 + Math.floor((n - 1) / 5)).padStart(2, "0")}T08:00:00.654321Z`
      yield* sql`INSERT INTO workspace_invitations (id, workspace_id, recipient_email, role, state, invited_by, expires_at, created_at)
                 VALUES (${id}, ${DemoWorkspaces.outsider.id}, ${`guest${n}@example.com`}, 'VIEWER', 'PENDING',
                         ${DemoAccounts.outsider.id}, '2026-12-01T00:00:00Z'::timestamptz, ${at}::timestamptz)`
    }
  }).pipe(Effect.orDie)

  it.effect("defaults to 50 per list and pages the rest without gaps or repeats", () =>
    Effect.gen(function*() {
      yield* seedInvitations
      const outsider = yield* signIn("outsider")
      const byDefault = yield* call("GET", url(DemoWorkspaces.outsider.id), { session: outsider })
      expect(byDefault.status, byDefault.text).toBe(200)
      expect(byDefault.body.data.invitations).toHaveLength(50)
      expect(byDefault.body.data.members).toHaveLength(1)
      expect(byDefault.body.data.membersNextCursor).toBeNull()
      expect(typeof byDefault.body.data.invitationsNextCursor).toBe("string")
      const all = yield* call("GET", url(DemoWorkspaces.outsider.id, "limit=100"), { session: outsider })
      expect(all.body.data.invitations).toHaveLength(55)
      expect(all.body.data.invitations.map((i: { publicId: string }) => i.publicId)).toEqual(
        Array.from({ length: 55 }, (_, k) => `01900098-0000-7000-8000-${(k + 1).toString(16).padStart(12, "0")}`)
      )
      expect(byDefault.body.data.invitations).toEqual(all.body.data.invitations.slice(0, 50))

      for (const limit of [3, 5, 50]) {
        const seen: Array<unknown> = []
        let cursor: string | null = null
        let pages = 0
        do {
          const query: string = cursor === null
            ? `limit=${limit}`
            : `limit=${limit}&invitationsCursor=${encodeURIComponent(cursor)}`
          const reply = yield* call("GET", url(DemoWorkspaces.outsider.id, query), { session: outsider })
          expect(reply.status, reply.text).toBe(200)
          seen.push(...reply.body.data.invitations)
          cursor = reply.body.data.invitationsNextCursor
          pages++
        } while (cursor !== null && pages < 30)
        expect(pages, `limit ${limit}`).toBe(Math.ceil(55 / limit))
        expect(seen, `limit ${limit}`).toEqual(all.body.data.invitations)
      }
    }))

  it.effect("binds a cursor to its workspace (same caller, same list, other workspace)", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // make the owner a member of the outsider's workspace too
      yield* sql`INSERT INTO workspace_members (workspace_id, account_id, role, state, is_workspace_owner, is_default, accepted_at, version, created_at)
                 VALUES (${DemoWorkspaces.outsider.id}, ${DemoAccounts.owner.id}, 'VIEWER', 'ACTIVE', false, false,
                         '2026-04-01T00:00:00Z'::timestamptz, 1, '2026-04-01T00:00:00Z'::timestamptz)`.pipe(Effect.orDie)
      const owner = yield* signIn("owner")
      const acmePage = yield* call("GET", url(acme.id, "limit=1"), { session: owner })
      const cursor = encodeURIComponent(acmePage.body.data.invitationsNextCursor)
      const ownPage = yield* call("GET", url(DemoWorkspaces.outsider.id, "limit=1"), { session: owner })
      expect(ownPage.status, ownPage.text).toBe(200)
      expect(ownPage.body.data.role).toBe("VIEWER")
      expect(ownPage.body.data.memberCount).toBe(2)
      const reply = yield* call("GET", url(DemoWorkspaces.outsider.id, `limit=1&invitationsCursor=${cursor}`), {
        session: owner
      })
      expectProblem(reply, 400, "invalid-cursor")
      expect(reply.body.errors[0].pointer).toBe("/invitationsCursor")
      // the workspace's own cursor works for the same caller
      const next = encodeURIComponent(ownPage.body.data.invitationsNextCursor)
      const ok = yield* call("GET", url(DemoWorkspaces.outsider.id, `limit=1&invitationsCursor=${next}`), { session: owner })
      expect(ok.status, ok.text).toBe(200)
    }))
})
