/**
 * GET /api/v1/workspaces/{id}/audit-events (Workspaces_ListAuditEvents, ours) and the audit
 * events the sensitive actions write (layers/Audit.ts, docs/audit.md): API key create and
 * revoke, analytics exports and ad campaign reviews in the workspace's trail; revoking
 * another session at account level.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Page } from "../../schema/envelope.js"
import { AuditEvent } from "../../src/workspaces/audit/Schemas.js"
import { call, expectMeta, expectProblem, signIn, type Session } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { tamper } from "../support/cursor.js"
import { DemoAccounts, DemoOtherSession } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoAdCampaigns } from "../../demo/growth/ads/seed.js"

const server = makeTestServer()
const decodePage = Schema.decodeUnknownSync(Page(AuditEvent), { onExcessProperty: "error" })
const acme = DemoWorkspaces.acme
const eventsPath = (query = "", workspace: string = acme.id) =>
  `/api/v1/workspaces/${workspace}/audit-events${query === "" ? "" : `?${query}`}`
const keysPath = `/api/v1/workspaces/${acme.id}/api-keys`

const list = (session: Session, query = "") =>
  Effect.gen(function*() {
    const reply = yield* call("GET", eventsPath(query), { session })
    expect(reply.status, reply.text).toBe(200)
    decodePage(reply.body)
    return reply
  })

layer(server.layer)("Workspaces_ListAuditEvents", (it) => {
  it.effect("API key create and revoke each write their event, newest first, with actor, target, address and request id; never the key", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const created = yield* call("POST", keysPath, { session: owner, body: { name: "Audited", scopes: ["public:read"] } })
      expect(created.status, created.text).toBe(201)
      const keyId: string = created.body.data.apiKey.publicId
      const secret: string = created.body.data.key
      const revoked = yield* call("DELETE", `${keysPath}/${keyId}`, { session: owner })
      expect(revoked.status, revoked.text).toBe(200)
      // revoking again changes nothing and writes nothing
      const again = yield* call("DELETE", `${keysPath}/${keyId}`, { session: owner })
      expect(again.status, again.text).toBe(200)

      const reply = yield* list(owner)
      expect(reply.headers["cache-control"]).toBe("private, no-cache")
      expectMeta(reply)
      expect(reply.text).not.toContain(secret.split("_")[2])
      const ours = reply.body.data.filter((e: any) => e.target.id === keyId)
      expect(ours.map((e: any) => e.action)).toEqual(["api_key.revoked", "api_key.created"])
      const actor = { publicId: DemoAccounts.owner.id, displayName: DemoAccounts.owner.displayName }
      expect(ours[1]).toMatchObject({
        action: "api_key.created",
        actor,
        target: { type: "api_key", id: keyId },
        details: { name: "Audited", prefix: created.body.data.apiKey.prefix, scopes: "public:read", expiresAt: null },
        requestId: created.headers["x-request-id"]
      })
      expect(ours[0]).toMatchObject({ actor, requestId: revoked.headers["x-request-id"], details: { name: "Audited" } })
      expect(typeof ours[0].clientAddress).toBe("string")
      expect(ours[0].publicId).not.toBe(ours[1].publicId)
    }))

  it.effect("pages with a signed cursor bound to the filters; filters by action and since", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      for (const name of ["p1", "p2", "p3"]) {
        const r = yield* call("POST", keysPath, { session: owner, body: { name, scopes: ["public:read"] } })
        expect(r.status, r.text).toBe(201)
      }
      const first = yield* list(owner, "action=api_key.created&limit=2")
      expect(first.body.data).toHaveLength(2)
      expect(first.body.data.every((e: any) => e.action === "api_key.created")).toBe(true)
      expect(first.body.nextCursor).not.toBeNull()
      const second = yield* list(owner, `action=api_key.created&limit=2&cursor=${first.body.nextCursor}`)
      const names = [...first.body.data, ...second.body.data].map((e: any) => e.details.name)
      expect(names.slice(0, 3)).toEqual(["p3", "p2", "p1"])
      const times = [...first.body.data, ...second.body.data].map((e: any) => e.createdAt)
      expect([...times].sort().reverse()).toEqual(times)

      // the cursor is bound to the filters and signed
      const otherFilter = yield* call("GET", eventsPath(`limit=2&cursor=${first.body.nextCursor}`), { session: owner })
      expectProblem(otherFilter, 400, "invalid-cursor")
      const tampered = yield* call("GET", eventsPath(`action=api_key.created&limit=2&cursor=${tamper(first.body.nextCursor, 5)}`), { session: owner })
      expectProblem(tampered, 400, "invalid-cursor")

      const future = yield* list(owner, "since=2030-01-01T00:00:00.000Z")
      expect(future.body).toMatchObject({ data: [], nextCursor: null })
      const none = yield* list(owner, "action=nothing.happened")
      expect(none.body.data).toEqual([])
      const badSince = yield* call("GET", eventsPath("since=yesterday"), { session: owner })
      expectProblem(badSince, 400)
      const badLimit = yield* call("GET", eventsPath("limit=101"), { session: owner })
      expectProblem(badLimit, 400)
    }))

  it.effect("needs audit.read: EDITOR and VIEWER get 403 role-required, a non-member 404, no session 401", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("GET", eventsPath(), { session: yield* signIn("member") }), 403, "role-required")
      expectProblem(yield* call("GET", eventsPath(), { session: yield* signIn("admin") }), 403, "role-required")
      expectProblem(yield* call("GET", eventsPath(), { session: yield* signIn("outsider") }), 404, "workspace-not-found")
      expectProblem(yield* call("GET", eventsPath()), 401)
    }))

  it.effect("an analytics export writes analytics_export.created in the agent's workspace", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const body = { exportType: "TRAFFIC", from: "2026-04-01", to: "2026-04-30", format: "CSV" }
      const created = yield* call("POST", `/api/v1/agents/${DemoAgents[0].id}/analytics/exports`, { session: owner, body })
      expect(created.status, created.text).toBe(202)
      const reply = yield* list(owner, "action=analytics_export.created")
      expect(reply.body.data[0]).toMatchObject({
        target: { type: "analytics_export", id: created.body.data.id },
        actor: { publicId: DemoAccounts.owner.id },
        details: { agentId: DemoAgents[0].id, ...body }
      })
    }))

  it.effect("an applied ad campaign review writes ad_campaign.reviewed (never the private decision); a preview writes nothing", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const owner = yield* signIn("owner")
      const campaign = DemoAdCampaigns.submitted
      const path = `/api/v1/admin/ads/campaigns/${campaign.id}/review`
      const base = {
        decision: "APPROVE",
        expectedVersion: campaign.version,
        decisionCode: "POLICY_OK",
        publicDecision: "The campaign meets the ad policy.",
        privateDecision: "Secretly checked the headline."
      }
      const preview = yield* call("POST", path, { session: admin, body: { ...base, dryRun: true } })
      expect(preview.status, preview.text).toBe(202)
      expect((yield* list(owner, "action=ad_campaign.reviewed")).body.data).toEqual([])
      const applied = yield* call("POST", path, {
        session: admin,
        body: { ...base, dryRun: false, confirmation: preview.body.data.confirmation }
      })
      expect(applied.status, applied.text).toBe(202)
      const reply = yield* list(owner, "action=ad_campaign.reviewed")
      expect(reply.body.data).toHaveLength(1)
      expect(reply.body.data[0]).toMatchObject({
        actor: { publicId: DemoAccounts.admin.id },
        target: { type: "ad_campaign", id: campaign.id },
        details: { decision: "APPROVE", decisionCode: "POLICY_OK", fromState: "SUBMITTED" }
      })
      expect(reply.text).not.toContain("Secretly")
    }))

  it.effect("revoking another session writes the account-level session.revoked; signing out writes nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const sql = yield* SqlClient.SqlClient
      const revoked = yield* call("DELETE", `/api/v1/me/sessions/${DemoOtherSession.id}`, { session: owner })
      expect(revoked.status, revoked.text).toBe(200)
      const signOut = yield* call("DELETE", `/api/v1/me/sessions/${owner.sessionId}`, { session: owner })
      expect(signOut.status, signOut.text).toBe(200)
      const rows = yield* sql<{ workspaceId: string | null; actor: string; targetId: string }>`
        SELECT workspace_id AS "workspaceId", actor_account_id AS actor, target_id AS "targetId"
        FROM audit_events WHERE action = 'session.revoked'`
      expect(rows).toEqual([{ workspaceId: null, actor: DemoAccounts.owner.id, targetId: DemoOtherSession.id }])
    }))
})
