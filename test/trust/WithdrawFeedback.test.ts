/**
 * Trust_WithdrawFeedback (spec §2.9, §3, §4.3, §7):
 * POST /api/v1/feedback/{feedbackId}/withdraw with {expectedRevision, reason}, and
 * the agent's trust figures (view `agent_trust_figures`) without withdrawn feedback.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoFeedback } from "../../demo/trust/seed.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { DemoAgents } from "../../demo/agents/seed.js"

type DemoFeedbackName = keyof typeof DemoFeedback

const withdrawPath = (feedback: DemoFeedbackName | string) =>
  `/api/v1/feedback/${feedback in DemoFeedback ? DemoFeedback[feedback as DemoFeedbackName].id : feedback}/withdraw`

const reason = "Resolved with the operator."

const withdraw = (feedback: DemoFeedbackName | string, expectedRevision: number, options: CallOptions = {}) =>
  call("POST", withdrawPath(feedback), { body: { expectedRevision, reason }, ...options })

const readFeedback = (feedback: DemoFeedbackName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ state: string; revision: number; reason: string | null; withdrawnAt: string | null }>`
      SELECT state, revision::int AS revision, withdrawal_reason AS reason, api_ts(withdrawn_at) AS "withdrawnAt"
      FROM feedback WHERE id = ${DemoFeedback[feedback].id}`
    return rows[0]!
  }).pipe(Effect.orDie)

const expectUnchanged = (feedback: DemoFeedbackName) =>
  Effect.map(readFeedback(feedback), (row) => {
    expect(row.state).toBe(DemoFeedback[feedback].state)
    expect(row.revision).toBe(DemoFeedback[feedback].revision)
  })

const trustFigures = (agentIndex: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ feedbackCount: number; averageRatingPpm: number | null; verifiedFeedbackCount: number }>`
      SELECT feedback_count::int AS "feedbackCount", average_rating_ppm AS "averageRatingPpm",
             verified_feedback_count::int AS "verifiedFeedbackCount"
      FROM agent_trust_figures WHERE agent_id = ${DemoAgents[agentIndex]!.id}`
    return rows[0]!
  }).pipe(Effect.orDie)

const successServer = makeTestServer()

layer(successServer.layer)("Trust_WithdrawFeedback: success", (it) => {
  it.effect("the author withdraws PUBLISHED feedback: WITHDRAWN, revision + 1; it leaves the agent's trust figures", () =>
    Effect.gen(function*() {
      // Atlas Research: owner 900000 (VERIFIED), member 700000, outsider 800000 (VERIFIED)
      expect(yield* trustFigures(0)).toEqual({ feedbackCount: 3, averageRatingPpm: 800_000, verifiedFeedbackCount: 2 })
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const reply = yield* withdraw("ownerAtlas", 1, { session: owner, idempotencyKey: key })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      const demo = DemoFeedback.ownerAtlas
      expect(reply.body.data).toEqual({
        publicId: demo.id,
        entityPublicId: DemoAgents[0].id,
        ratingPpm: 900_000,
        category: "QUALITY",
        title: demo.title,
        body: demo.body,
        state: "WITHDRAWN",
        authenticityState: "VERIFIED",
        revision: 2,
        createdAt: "2026-03-02T00:00:00.000Z",
        updatedAt: TestEpoch.toISOString(),
        helpfulCount: "12",
        notHelpfulCount: "1",
        responseCount: "1"
      })
      expect(yield* readFeedback("ownerAtlas")).toEqual({ state: "WITHDRAWN", revision: 2, reason, withdrawnAt: TestEpoch.toISOString() })
      expect(yield* trustFigures(0)).toEqual({ feedbackCount: 2, averageRatingPpm: 750_000, verifiedFeedbackCount: 1 })
      // same key: the stored response
      const replay = yield* withdraw("ownerAtlas", 1, { session: owner, idempotencyKey: key })
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.text).toBe(reply.text)
      // withdrawing twice: the feedback is WITHDRAWN at revision 2
      const twice = yield* withdraw("ownerAtlas", 2, { session: owner })
      expectProblem(twice, 409, "invalid-state")
      expect(twice.body.detail).toContain("WITHDRAWN")
      expectProblem(yield* withdraw("ownerAtlas", 1, { session: owner }), 409, "version-conflict")
    }))

  it.effect("the author withdraws feedback awaiting moderation or hidden; the trust figures did not count it", () =>
    Effect.gen(function*() {
      const before = yield* trustFigures(1)
      expect(before).toEqual({ feedbackCount: 0, averageRatingPpm: null, verifiedFeedbackCount: 0 })
      const owner = yield* signIn("owner")
      const pending = yield* withdraw("ownerPending", 1, { session: owner })
      expect(pending.status, pending.text).toBe(200)
      expect(pending.body.data).toMatchObject({ state: "WITHDRAWN", revision: 2 })
      const hidden = yield* withdraw("ownerHidden", 3, { session: owner })
      expect(hidden.status, hidden.text).toBe(200)
      expect(hidden.body.data).toMatchObject({ state: "WITHDRAWN", revision: 4, authenticityState: "SUSPECTED" })
      expect(yield* trustFigures(1)).toEqual(before)
    }))
})

const refusalServer = makeTestServer()

layer(refusalServer.layer)("Trust_WithdrawFeedback: refusals", (it) => {
  it.effect("409 invalid-state for feedback already WITHDRAWN; 409 version-conflict for a stale revision", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      expectProblem(yield* withdraw("ownerWithdrawn", 2, { session: owner }), 409, "invalid-state")
      const member = yield* signIn("member")
      const stale = yield* withdraw("memberAtlas", 1, { session: member })
      expectProblem(stale, 409, "version-conflict")
      expect(stale.body.detail).toMatch(/\brevision 2\b/)
      yield* expectUnchanged("ownerWithdrawn")
      yield* expectUnchanged("memberAtlas")
    }))

  it.effect("403 author-required for someone else's PUBLISHED feedback, at any revision", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      expectProblem(yield* withdraw("memberAtlas", 2, { session: owner }), 403, "author-required")
      expectProblem(yield* withdraw("memberAtlas", 1, { session: owner }), 403, "author-required")
      const outsider = yield* signIn("outsider")
      expectProblem(yield* withdraw("ownerAtlas", 1, { session: outsider }), 403, "author-required")
      yield* expectUnchanged("memberAtlas")
      yield* expectUnchanged("ownerAtlas")
    }))

  it.effect("404 feedback-not-found for someone else's feedback that is not public, and for an unknown id", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      for (const [feedback, revision] of [["ownerPending", 1], ["ownerHidden", 3], ["ownerWithdrawn", 2]] as const) {
        expectProblem(yield* withdraw(feedback, revision, { session: member }), 404, "feedback-not-found")
        yield* expectUnchanged(feedback)
      }
      expectProblem(yield* withdraw(randomUUID(), 1, { session: member }), 404, "feedback-not-found")
    }))

  it.effect("401 without a session; 403 without the CSRF token", () =>
    Effect.gen(function*() {
      expectProblem(yield* withdraw("ownerAtlas", 1), 401, "unauthenticated")
      const owner = yield* signIn("owner")
      expectProblem(yield* withdraw("ownerAtlas", 1, { session: owner, csrf: null }), 403, "csrf-token-invalid")
      yield* expectUnchanged("ownerAtlas")
    }))

  it.effect("400 for bodies that break the rules, naming the field", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ expectedRevision: 1, reason: "abc" }, "/reason"],
        [{ expectedRevision: 1, reason: "x".repeat(2001) }, "/reason"],
        [{ expectedRevision: 0, reason }, "/expectedRevision"],
        [{ expectedRevision: 1.5, reason }, "/expectedRevision"],
        [{ reason }, "/expectedRevision"],
        [{ expectedRevision: 1, reason, extra: 1 }, "/extra"]
      ]
      for (const [body, pointer] of cases) {
        const reply = yield* call("POST", withdrawPath("ownerAtlas"), { session: owner, body })
        expectProblem(reply, 400)
        expect(reply.body.errors.map((e: { pointer: string }) => e.pointer), reply.text).toContain(pointer)
      }
      const badPath = yield* call("POST", "/api/v1/feedback/nope/withdraw", { session: owner, body: { expectedRevision: 1, reason } })
      expectProblem(badPath, 400)
      expect(badPath.body.errors[0]).toMatchObject({ in: "path", pointer: "/feedbackId" })
      yield* expectUnchanged("ownerAtlas")
    }))
})
