/**
 * Growth_ReviewAdCampaign (POST /api/v1/admin/ads/campaigns/{campaignId}/review, spec §3,
 * §4.2) through the HTTP stack: preview → apply → replay → stale apply, every decision's
 * moves, the audit record and review row (with the private decision, which no response
 * shows), and every listed status it can produce.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { AdCampaignReview } from "../../../src/growth/ads/Schemas.js"
import { Data } from "../../../schema/envelope.js"
import { DemoAdCampaigns, type DemoAdCampaignName } from "../../../src/growth/ads/demo.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { DemoAccounts } from "../../../src/accounts/demo.js"

const server = makeTestServer()
const pathOf = (id: string) => `/api/v1/admin/ads/campaigns/${id}/review`
const decode = Schema.decodeUnknownSync(Data(AdCampaignReview), { onExcessProperty: "error" })
const privateDecision = "Destination checked by hand; the advertiser is on the watch list."

const review = (session: Session | undefined, name: DemoAdCampaignName, body: Record<string, unknown>, idempotencyKey?: string) =>
  call("POST", pathOf(DemoAdCampaigns[name].id), { ...(session ? { session } : {}), body, ...(idempotencyKey ? { idempotencyKey } : {}) })

const decision = (name: DemoAdCampaignName, decision: string, change: Record<string, unknown> = {}): Record<string, unknown> => ({
  decision,
  expectedVersion: DemoAdCampaigns[name].version,
  decisionCode: "POLICY_OK",
  publicDecision: "The campaign meets the ad policy.",
  privateDecision,
  ...change
})

const apply = (name: DemoAdCampaignName, d: string, change: Record<string, unknown> = {}) =>
  decision(name, d, { dryRun: false, confirmation: `${d} ${DemoAdCampaigns[name].id}`, ...change })

const readCampaign = (name: DemoAdCampaignName) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ state: string; version: number; creativeState: string }>`
      SELECT c.state, c.version::int AS version, cr.state AS "creativeState"
      FROM ad_campaigns c JOIN ad_creatives cr ON cr.campaign_id = c.id WHERE c.id = ${DemoAdCampaigns[name].id}`
      .pipe(Effect.map(([row]) => row!)))

const reviewsOf = (name: DemoAdCampaignName) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ decision: string; decisionCode: string; privateDecision: string; fromState: string; toState: string; action: string; reason: string; actor: string; detail: unknown }>`
      SELECT r.decision, r.decision_code AS "decisionCode", r.private_decision AS "privateDecision", r.from_state AS "fromState",
             r.to_state AS "toState", a.action, a.reason, a.actor_account_id AS actor, a.detail
      FROM ad_campaign_reviews r JOIN admin_audit_events a ON a.id = r.audit_event_id
      WHERE r.campaign_id = ${DemoAdCampaigns[name].id} ORDER BY r.created_at, r.id`)

layer(server.layer)("Growth_ReviewAdCampaign", (it) => {
  it.effect("preview → apply → replay → stale apply: APPROVE of a future campaign schedules it, with an audit record", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const demo = DemoAdCampaigns.submitted
      const preview = yield* review(admin, "submitted", decision("submitted", "APPROVE"))
      expect(preview.status, preview.text).toBe(202)
      expectMeta(preview)
      expect(() => decode(preview.body)).not.toThrow()
      expect(Object.keys(preview.body.data).sort()).toEqual(["applied", "campaign", "confirmation"])
      expect(preview.body.data).toMatchObject({ applied: false, confirmation: `APPROVE ${demo.id}` })
      expect(preview.body.data.campaign).toMatchObject({ id: demo.id, state: "SUBMITTED", version: 2 })
      expect(yield* readCampaign("submitted")).toEqual({ state: "SUBMITTED", version: 2, creativeState: "READY" })
      expect(yield* reviewsOf("submitted")).toEqual([])

      const key = randomUUID()
      const body = apply("submitted", "APPROVE", { confirmation: preview.body.data.confirmation })
      const applied = yield* review(admin, "submitted", body, key)
      expect(applied.status, applied.text).toBe(202)
      expect(() => decode(applied.body)).not.toThrow()
      expect(applied.body.data).toMatchObject({ applied: true, confirmation: `APPROVE ${demo.id}` })
      expect(applied.body.data.campaign).toMatchObject({
        id: demo.id, state: "SCHEDULED", version: 3, updatedAt: TestEpoch.toISOString(), creative: { state: "APPROVED" }
      })
      expect(applied.text).not.toContain(privateDecision)
      expect(yield* readCampaign("submitted")).toEqual({ state: "SCHEDULED", version: 3, creativeState: "APPROVED" })
      const records = yield* reviewsOf("submitted")
      expect(records).toEqual([{
        decision: "APPROVE", decisionCode: "POLICY_OK", privateDecision, fromState: "SUBMITTED", toState: "SCHEDULED",
        action: "Growth_ReviewAdCampaign", reason: "The campaign meets the ad policy.", actor: DemoAccounts.admin.id,
        detail: expect.objectContaining({ decision: "APPROVE", decisionCode: "POLICY_OK", fromState: "SUBMITTED", toState: "SCHEDULED", version: 3 })
      }])
      expect(JSON.stringify(records[0]!.detail)).not.toContain(privateDecision)

      const replay = yield* review(admin, "submitted", body, key)
      expect(replay.status).toBe(202)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.body.data).toEqual(applied.body.data)
      expect(yield* reviewsOf("submitted")).toHaveLength(1)

      expectProblem(yield* review(admin, "submitted", body), 409, "version-conflict")
      // at the new version, SCHEDULED is not reviewable for approval, and a preview says so too
      expectProblem(yield* review(admin, "submitted", { ...body, expectedVersion: 3 }), 409, "invalid-state")
      expectProblem(yield* review(admin, "submitted", decision("submitted", "APPROVE", { expectedVersion: 3 })), 409, "invalid-state")
      // no public view shows the private decision
      for (const p of ["/api/v1/admin/ads/campaigns", "/api/v1/ads/campaigns"]) {
        const list = yield* call("GET", p, { session: p.includes("admin") ? admin : yield* signIn("owner") })
        expect(list.status).toBe(200)
        expect(list.text).not.toContain(privateDecision)
      }
    }))
})

// each block starts from its own copy of the seeded database: the moves of one do not meet the others
layer(server.layer)("Growth_ReviewAdCampaign: the moves", (it) => {
  it.effect("APPROVE of a started campaign approves it; REJECT rejects; SUSPEND suspends from APPROVED, ACTIVE, PAUSED", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const approved = yield* review(admin, "underReview", apply("underReview", "APPROVE"))
      expect(approved.status, approved.text).toBe(202)
      expect(approved.body.data.campaign).toMatchObject({ state: "APPROVED", version: 4 })
      const suspended = yield* review(admin, "underReview", apply("underReview", "SUSPEND", { expectedVersion: 4, decisionCode: "FRAUD_SIGNAL" }))
      expect(suspended.status, suspended.text).toBe(202)
      expect(suspended.body.data.campaign).toMatchObject({ state: "SUSPENDED", version: 5, creative: { state: "APPROVED" } })
      expect((yield* reviewsOf("underReview")).map((r) => [r.decision, r.fromState, r.toState])).toEqual([
        ["APPROVE", "UNDER_REVIEW", "APPROVED"],
        ["SUSPEND", "APPROVED", "SUSPENDED"]
      ])

      const rejected = yield* review(admin, "outsider", apply("outsider", "REJECT", { decisionCode: "MISLEADING_CLAIM" }))
      expect(rejected.status, rejected.text).toBe(202)
      expect(rejected.body.data.campaign).toMatchObject({ state: "REJECTED", version: 2, creative: { state: "REJECTED" } })

      for (const name of ["active", "paused"] as const) {
        const reply = yield* review(admin, name, apply(name, "SUSPEND"))
        expect(reply.status, reply.text).toBe(202)
        expect(reply.body.data.campaign).toMatchObject({ state: "SUSPENDED", version: DemoAdCampaigns[name].version + 1 })
      }
    }))
})

layer(server.layer)("Growth_ReviewAdCampaign: refusals", (it) => {
  it.effect("409 invalid-state for every other move; 404 for an unknown campaign; nothing changes", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const refused: Array<[DemoAdCampaignName, string]> = [
        ["draft", "APPROVE"], ["draft", "REJECT"], ["draft", "SUSPEND"],
        ["active", "APPROVE"], ["active", "REJECT"], ["paused", "APPROVE"],
        ["rejected", "APPROVE"], ["rejected", "SUSPEND"], ["submitted", "SUSPEND"]
      ]
      for (const [name, d] of refused) {
        const before = yield* readCampaign(name)
        expectProblem(yield* review(admin, name, apply(name, d)), 409, "invalid-state")
        expectProblem(yield* review(admin, name, decision(name, d)), 409, "invalid-state")
        expect(yield* readCampaign(name)).toEqual(before)
      }
      expectProblem(
        yield* call("POST", pathOf(randomUUID()), { session: admin, body: decision("submitted", "APPROVE") }),
        404,
        "ad-campaign-not-found"
      )
      expectProblem(yield* review(admin, "submitted", decision("submitted", "APPROVE", { expectedVersion: 1 })), 409, "version-conflict")
    }))

  it.effect("400 for a missing or wrong confirmation and every broken body rule; 401, 403 for non-admins", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const { confirmation: _c, ...noConfirmation } = apply("submitted", "APPROVE")
      expectProblem(yield* review(admin, "submitted", noConfirmation), 400, "confirmation-required")
      for (const confirmation of ["yes", `REJECT ${DemoAdCampaigns.submitted.id}`, `APPROVE ${DemoAdCampaigns.draft.id}`]) {
        expectProblem(yield* review(admin, "submitted", apply("submitted", "APPROVE", { confirmation })), 400, "confirmation-mismatch")
      }
      const invalid: Array<Record<string, unknown>> = [
        { decision: "PAUSE" },
        { expectedVersion: 0 },
        { expectedVersion: 9007199254740992 },
        { decisionCode: "ok" },
        { decisionCode: "_OK" },
        { decisionCode: "OK" },
        { decisionCode: "A" + "B".repeat(64) },
        { decisionCode: "POLICY-OK" },
        { publicDecision: "too short" },
        { publicDecision: "p".repeat(2001) },
        { privateDecision: "short" },
        { privateDecision: "p".repeat(4001) },
        { dryRun: "no" },
        { confirmation: "c".repeat(501) },
        { extra: true },
        { privateDecision: undefined }
      ]
      for (const change of invalid) expectProblem(yield* review(admin, "submitted", decision("submitted", "APPROVE", change)), 400, "invalid-request")
      const longest = yield* review(admin, "submitted", decision("submitted", "APPROVE", { decisionCode: "A" + "B".repeat(63) }))
      expect(longest.status, longest.text).toBe(202)
      expectProblem(yield* call("POST", pathOf("nope"), { session: admin, body: decision("submitted", "APPROVE") }), 400, "invalid-request")
      expectProblem(yield* call("POST", pathOf(DemoAdCampaigns.submitted.id), { session: admin, body: decision("submitted", "APPROVE"), idempotencyKey: null }), 400, "idempotency-key-required")
      expect(yield* readCampaign("submitted")).toEqual({ state: "SUBMITTED", version: 2, creativeState: "READY" })

      expectProblem(yield* review(undefined, "submitted", decision("submitted", "APPROVE")), 401, "unauthenticated")
      expectProblem(yield* review(yield* signIn("owner"), "submitted", decision("submitted", "APPROVE")), 403, "admin-required")
    }))
})
