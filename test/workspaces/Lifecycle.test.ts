/**
 * The workspace lifecycle through the HTTP stack: Workspaces_CreateWorkspace,
 * _ListWorkspaces, _UpdateWorkspace, _SuspendWorkspace, _ResumeWorkspace (spec §2.12, §3
 * Workspace states) and their audit events. Closing is in CloseWorkspace.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Data, Page } from "../../schema/envelope.js"
import { AdminWorkspace, Workspace, WorkspaceSummary } from "../../schema/workspaces.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"

const server = makeTestServer()
const decodeWorkspace = Schema.decodeUnknownSync(Data(Workspace), { onExcessProperty: "error" })
const decodePage = Schema.decodeUnknownSync(Page(WorkspaceSummary), { onExcessProperty: "error" })
const decodeAdmin = Schema.decodeUnknownSync(Data(AdminWorkspace), { onExcessProperty: "error" })
const acme = DemoWorkspaces.acme
const outsider = DemoWorkspaces.outsider

/** The audit events of `workspaceId` with `action`, oldest first. */
const auditOf = (workspaceId: string, action: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ actor: string | null; details: unknown }>`SELECT actor_account_id AS actor, details FROM audit_events
      WHERE workspace_id = ${workspaceId} AND action = ${action} ORDER BY created_at, id`).pipe(Effect.orDie)

layer(server.layer)("Workspaces_CreateWorkspace", (it) => {
  it.effect("creates an ACTIVE workspace owned by the caller (201, Location), not the default beside Acme", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      const reply = yield* call("POST", "/api/v1/workspaces", { session: member, body: { name: "  Mel's Lab  " } })
      expect(reply.status, reply.text).toBe(201)
      expectMeta(reply)
      expect(() => decodeWorkspace(reply.body)).not.toThrow()
      const w = reply.body.data
      expect(reply.headers["location"]).toBe(`/api/v1/workspaces/${w.publicId}`)
      expect(w).toMatchObject({
        name: "Mel's Lab",
        slug: "mel-s-lab",
        state: "ACTIVE",
        role: "OWNER",
        isDefault: false,
        memberCount: 1,
        version: 1,
        createdAt: TestEpoch.toISOString(),
        invitations: [],
        membersNextCursor: null
      })
      expect(w.members).toEqual([expect.objectContaining({
        accountPublicId: DemoAccounts.member.id,
        role: "OWNER",
        state: "ACTIVE",
        isWorkspaceOwner: true
      })])
      const read = yield* call("GET", `/api/v1/workspaces/${w.publicId}`, { session: member })
      expect(read.body.data).toEqual(w)
      expect(yield* auditOf(w.publicId, "workspace.created")).toEqual([
        { actor: DemoAccounts.member.id, details: { slug: "mel-s-lab", isDefault: false } }
      ])
      // the same name again: the derived slug takes the first free suffix
      const again = yield* call("POST", "/api/v1/workspaces", { session: member, body: { name: "Mel's Lab" } })
      expect(again.status, again.text).toBe(201)
      expect(again.body.data.slug).toBe("mel-s-lab-2")
    }))

  it.effect("a given slug that is taken is 409 slug-taken; a bad body is 400 naming the field", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      const taken = yield* call("POST", "/api/v1/workspaces", { session: member, body: { name: "Copy", slug: acme.slug } })
      expectProblem(taken, 409, "slug-taken")
      expect(taken.body.errors[0].pointer).toBe("/slug")
      for (
        const [body, pointer] of [
          [{ name: "x" }, "/name"],
          [{ name: "   " }, "/name"],
          [{ name: "A".repeat(101) }, "/name"],
          [{ name: "Fine", slug: "Upper" }, "/slug"],
          [{ name: "Fine", slug: "-edge" }, "/slug"],
          [{ name: "Fine", slug: "ab" }, "/slug"],
          [{ name: "Fine", extra: 1 }, "/extra"]
        ] as const
      ) {
        const reply = yield* call("POST", "/api/v1/workspaces", { session: member, body })
        expectProblem(reply, 400)
        expect(reply.body.errors[0].pointer, JSON.stringify(body)).toBe(pointer)
      }
      expectProblem(yield* call("POST", "/api/v1/workspaces", { body: { name: "Nobody" } }), 401)
    }))

  it.effect("the caller's first workspace becomes the default; an account owns at most 20", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE workspace_members SET state = 'REVOKED' WHERE account_id = ${DemoAccounts.outsider.id}`.pipe(Effect.orDie)
      const session = yield* signIn("outsider")
      const first = yield* call("POST", "/api/v1/workspaces", { session, body: { name: "Otto Solo" } })
      expect(first.status, first.text).toBe(201)
      expect(first.body.data.isDefault).toBe(true)
      const second = yield* call("POST", "/api/v1/workspaces", { session, body: { name: "Otto Duo" } })
      expect(second.body.data.isDefault).toBe(false)
      for (let n = 3; n <= 20; n++) {
        const reply = yield* call("POST", "/api/v1/workspaces", { session, body: { name: `Otto ${n}` } })
        expect(reply.status, reply.text).toBe(201)
      }
      const over = yield* call("POST", "/api/v1/workspaces", { session, body: { name: "Otto 21" } })
      expectProblem(over, 409, "workspace-limit-reached")
      expect(over.body.detail).toContain("20")
    }))
})

layer(makeTestServer().layer)("Workspaces_ListWorkspaces", (it) => {
  it.effect("lists the caller's workspaces with its role, default first then by name, paged by a signed cursor", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      yield* call("POST", "/api/v1/workspaces", { session: owner, body: { name: "Zeta Works" } })
      yield* call("POST", "/api/v1/workspaces", { session: owner, body: { name: "Beta Works" } })
      const all = yield* call("GET", "/api/v1/workspaces", { session: owner })
      expect(all.status, all.text).toBe(200)
      expect(all.headers["cache-control"]).toBe("private, no-cache")
      expect(() => decodePage(all.body)).not.toThrow()
      expect(all.body.nextCursor).toBeNull()
      expect(all.body.data.map((w: { name: string }) => w.name)).toEqual(["Acme Agents", "Beta Works", "Frozen Holdings", "Zeta Works"])
      expect(all.body.data[0]).toMatchObject({ publicId: acme.id, role: "OWNER", isDefault: true, memberCount: 3, state: "ACTIVE" })
      const seen: Array<string> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const query: string = cursor === null ? "limit=1" : `limit=1&cursor=${encodeURIComponent(cursor)}`
        const reply = yield* call("GET", `/api/v1/workspaces?${query}`, { session: owner })
        expect(reply.status, reply.text).toBe(200)
        seen.push(...reply.body.data.map((w: { name: string }) => w.name))
        cursor = reply.body.nextCursor
        pages++
      } while (cursor !== null && pages < 10)
      expect(seen).toEqual(["Acme Agents", "Beta Works", "Frozen Holdings", "Zeta Works"])
      // a cursor is bound to its caller
      const first = yield* call("GET", "/api/v1/workspaces?limit=1", { session: owner })
      const member = yield* signIn("member")
      const stolen = yield* call("GET", `/api/v1/workspaces?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`, {
        session: member
      })
      expectProblem(stolen, 400, "invalid-cursor")
      const mine = yield* call("GET", "/api/v1/workspaces", { session: member })
      expect(mine.body.data).toEqual([
        expect.objectContaining({ publicId: acme.id, role: "EDITOR", isDefault: true }),
        expect.objectContaining({ publicId: DemoWorkspaces.team.id, role: "OWNER", isDefault: false })
      ])
      expectProblem(yield* call("GET", "/api/v1/workspaces?limit=0", { session: member }), 400)
      expectProblem(yield* call("GET", "/api/v1/workspaces"), 401)
    }))
})

layer(makeTestServer().layer)("Workspaces_UpdateWorkspace, _SuspendWorkspace, _ResumeWorkspace", (it) => {
  const patch = (session: Session, body: unknown, id: string = acme.id) =>
    call("PATCH", `/api/v1/workspaces/${id}`, { session, body })

  it.effect("renames and re-slugs at the expected version; refusals in order 404, 403, 409 version, 409 slug", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const renamed = yield* patch(owner, { name: "Acme Agents Inc", slug: "acme-inc", expectedVersion: 1 })
      expect(renamed.status, renamed.text).toBe(200)
      expect(() => decodeWorkspace(renamed.body)).not.toThrow()
      expect(renamed.body.data).toMatchObject({ name: "Acme Agents Inc", slug: "acme-inc", version: 2, role: "OWNER" })
      expect(yield* auditOf(acme.id, "workspace.updated")).toEqual([
        { actor: DemoAccounts.owner.id, details: { nameChanged: true, slugChanged: true, version: 2 } }
      ])
      expectProblem(yield* patch(owner, { name: "Again", expectedVersion: 1 }), 409, "version-conflict")
      expectProblem(yield* patch(owner, { slug: DemoWorkspaces.locked.slug, expectedVersion: 2 }), 409, "slug-taken")
      const member = yield* signIn("member") // EDITOR
      expectProblem(yield* patch(member, { name: "Mine", expectedVersion: 2 }), 403, "role-required")
      const stranger = yield* signIn("outsider")
      const hidden = yield* patch(stranger, { name: "Mine", expectedVersion: 2 })
      expectProblem(hidden, 404, "workspace-not-found")
      expectProblem(yield* patch(owner, { name: "Ghost", expectedVersion: 1 }, "5f0c8a3e-1b2d-4c6e-8f00-123456789abc"), 404)
      expectProblem(yield* patch(owner, { expectedVersion: 0 }), 400)
      expect((yield* call("GET", `/api/v1/workspaces/${acme.id}`, { session: owner })).body.data.version).toBe(2)
    }))

  it.effect("of two concurrent updates at one version exactly one succeeds, the other is 409 version-conflict", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("outsider")
      const replies = yield* Effect.all([
        patch(owner, { name: "Outsider One", expectedVersion: 1 }, outsider.id),
        patch(owner, { name: "Outsider Two", expectedVersion: 1 }, outsider.id)
      ], { concurrency: 2 })
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409])
      expectProblem(replies.find((r) => r.status === 409)!, 409, "version-conflict")
      const read = yield* call("GET", `/api/v1/workspaces/${outsider.id}`, { session: owner })
      expect(read.body.data.version).toBe(2)
      expect(read.body.data.name).toBe(replies.find((r) => r.status === 200)!.body.data.name)
    }))

  it.effect("admins suspend (reads 423, writes 409 workspace-not-active) and resume; others get 403", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const admin = yield* signIn("admin")
      const locked = DemoWorkspaces.locked
      const suspendPath = `/api/v1/admin/workspaces/${outsider.id}/suspend`
      const resumePath = `/api/v1/admin/workspaces/${outsider.id}/resume`
      expectProblem(yield* call("POST", suspendPath, { session: owner, body: { reason: "Because." } }), 403, "admin-required")
      const suspended = yield* call("POST", suspendPath, { session: admin, body: { reason: "Abuse report under review." } })
      expect(suspended.status, suspended.text).toBe(200)
      expect(() => decodeAdmin(suspended.body)).not.toThrow()
      const before = suspended.body.data.version
      expect(suspended.body.data).toMatchObject({ publicId: outsider.id, state: "SUSPENDED" })
      const otto = yield* signIn("outsider")
      expectProblem(yield* call("GET", `/api/v1/workspaces/${outsider.id}`, { session: otto }), 423, "policy-locked")
      expect((yield* call("GET", "/api/v1/workspaces", { session: otto })).body.data[0].state).toBe("SUSPENDED")
      expectProblem(yield* patch(otto, { name: "Escape", expectedVersion: before }, outsider.id), 409, "workspace-not-active")
      const close = yield* call("POST", `/api/v1/workspaces/${outsider.id}/close`, { session: otto, body: { expectedVersion: before } })
      expectProblem(close, 409, "workspace-not-active")
      expectProblem(yield* call("POST", suspendPath, { session: admin, body: { reason: "Twice over." } }), 409, "invalid-state")
      const resumed = yield* call("POST", resumePath, { session: admin, body: {} })
      expect(resumed.status, resumed.text).toBe(200)
      expect(resumed.body.data).toMatchObject({ state: "ACTIVE", version: before + 1 })
      expectProblem(yield* call("POST", resumePath, { session: admin, body: {} }), 409, "invalid-state")
      expect((yield* call("GET", `/api/v1/workspaces/${outsider.id}`, { session: otto })).status).toBe(200)
      expect((yield* auditOf(outsider.id, "workspace.suspended")).map((e) => e.details)).toEqual([
        { reason: "Abuse report under review.", state: "SUSPENDED" }
      ])
      expect((yield* auditOf(outsider.id, "workspace.resumed")).map((e) => e.actor)).toEqual([DemoAccounts.admin.id])
      expectProblem(
        yield* call("POST", "/api/v1/admin/workspaces/5f0c8a3e-1b2d-4c6e-8f00-123456789abc/suspend", {
          session: admin,
          body: { reason: "Nobody home." }
        }),
        404
      )
      expectProblem(yield* call("POST", `/api/v1/admin/workspaces/${locked.id}/suspend`, { session: admin, body: {} }), 400)
    }))
})
