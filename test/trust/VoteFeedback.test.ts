/**
 * Trust_VoteFeedback: POST /api/v1/feedback/{feedbackId}/votes with
 * {vote: HELPFUL | NOT_HELPFUL}: one vote per account and feedback, changeable; the
 * feedback's counts move in the same transaction; the vote marks the agent's evidence.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoFeedback } from "../../demo/trust/seed.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { clearMarks, markOf } from "../support/evidenceMarks.js"

type DemoFeedbackName = keyof typeof DemoFeedback

const votePath = (feedback: DemoFeedbackName | string) =>
  `/api/v1/feedback/${feedback in DemoFeedback ? DemoFeedback[feedback as DemoFeedbackName].id : feedback}/votes`

const vote = (feedback: DemoFeedbackName | string, body: unknown, options: CallOptions) =>
  call("POST", votePath(feedback), { body, ...options })

/** The stored counts of a demo feedback and its votes by account. */
const stored = (feedback: DemoFeedbackName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = DemoFeedback[feedback].id
    const [row] = yield* sql<{ helpful: number; notHelpful: number; revision: number }>`
      SELECT helpful_count::int AS helpful, not_helpful_count::int AS "notHelpful", revision::int AS revision
      FROM feedback WHERE id = ${id}`
    const votes = yield* sql<{ accountId: string; vote: string }>`
      SELECT account_id AS "accountId", vote FROM feedback_votes WHERE feedback_id = ${id} ORDER BY account_id`
    return { ...row!, votes: votes.map((v) => ({ accountId: v.accountId, vote: v.vote })) }
  }).pipe(Effect.orDie)

const server = makeTestServer()

layer(server.layer)("Trust_VoteFeedback", (it) => {
  it.effect("a vote moves the counts (200 with the feedback, revision unchanged), can change, and marks evidence", () =>
    Effect.gen(function*() {
      const demo = DemoFeedback.outsiderAtlas
      const [helpful, notHelpful] = [demo.counts[0], demo.counts[1]]
      yield* clearMarks
      const member = yield* signIn("member")
      const key = randomUUID()
      const reply = yield* vote("outsiderAtlas", { vote: "HELPFUL" }, { session: member, idempotencyKey: key })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(reply.body.data).toEqual({
        publicId: demo.id,
        entityPublicId: DemoAgents[0].id,
        ratingPpm: demo.rating,
        category: demo.category,
        title: demo.title,
        body: demo.body,
        state: "PUBLISHED",
        authenticityState: demo.authenticity,
        revision: 1,
        createdAt: reply.body.data.createdAt,
        updatedAt: reply.body.data.updatedAt,
        helpfulCount: String(helpful + 1),
        notHelpfulCount: String(notHelpful),
        responseCount: String(demo.counts[2])
      })
      expect(yield* stored("outsiderAtlas")).toEqual({
        helpful: helpful + 1, notHelpful, revision: 1, votes: [{ accountId: DemoAccounts.member.id, vote: "HELPFUL" }]
      })
      expect(yield* markOf(DemoAgents[0].id)).toBe(TestEpoch.toISOString())
      // same key: the stored response, not a second vote
      const replay = yield* vote("outsiderAtlas", { vote: "HELPFUL" }, { session: member, idempotencyKey: key })
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.text).toBe(reply.text)
      // the same vote again (new key): one vote per account, nothing moves
      const same = yield* vote("outsiderAtlas", { vote: "HELPFUL" }, { session: member })
      expect(same.status, same.text).toBe(200)
      expect(same.body.data).toMatchObject({ helpfulCount: String(helpful + 1), notHelpfulCount: String(notHelpful) })
      // changed: the first vote is replaced
      const changed = yield* vote("outsiderAtlas", { vote: "NOT_HELPFUL" }, { session: member })
      expect(changed.status, changed.text).toBe(200)
      expect(changed.body.data).toMatchObject({ helpfulCount: String(helpful), notHelpfulCount: String(notHelpful + 1), revision: 1 })
      // another account's vote adds to it
      const owner = yield* signIn("owner")
      const second = yield* vote("outsiderAtlas", { vote: "NOT_HELPFUL" }, { session: owner })
      expect(second.body.data).toMatchObject({ helpfulCount: String(helpful), notHelpfulCount: String(notHelpful + 2) })
      const back = yield* vote("outsiderAtlas", { vote: "HELPFUL" }, { session: member })
      expect(back.body.data).toMatchObject({ helpfulCount: String(helpful + 1), notHelpfulCount: String(notHelpful + 1) })
      expect((yield* stored("outsiderAtlas")).votes).toEqual(
        [
          { accountId: DemoAccounts.member.id, vote: "HELPFUL" },
          { accountId: DemoAccounts.owner.id, vote: "NOT_HELPFUL" }
        ].sort((a, b) => a.accountId.localeCompare(b.accountId))
      )
    }))

  it.effect("concurrent votes of one account: the counts always equal the one vote it holds", () =>
    Effect.gen(function*() {
      const demo = DemoFeedback.memberAtlas
      const admin = yield* signIn("admin")
      const replies = yield* Effect.all(
        Array.from({ length: 6 }, (_, i) => vote("memberAtlas", { vote: i % 2 === 0 ? "HELPFUL" : "NOT_HELPFUL" }, { session: admin })),
        { concurrency: "unbounded" }
      )
      for (const r of replies) expect(r.status, r.text).toBe(200)
      const after = yield* stored("memberAtlas")
      expect(after.votes).toHaveLength(1)
      const held = after.votes[0]!.vote
      expect(after.helpful).toBe(demo.counts[0] + (held === "HELPFUL" ? 1 : 0))
      expect(after.notHelpful).toBe(demo.counts[1] + (held === "NOT_HELPFUL" ? 1 : 0))
    }))

  it.effect("403 own-feedback-vote for the author's own feedback", () =>
    Effect.gen(function*() {
      const before = yield* stored("ownerAtlas")
      const owner = yield* signIn("owner")
      expectProblem(yield* vote("ownerAtlas", { vote: "HELPFUL" }, { session: owner }), 403, "own-feedback-vote")
      expect(yield* stored("ownerAtlas")).toEqual(before)
    }))

  it.effect("404 feedback-not-found for feedback that is not PUBLISHED, and for an unknown id", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      for (const feedback of ["ownerPending", "ownerHidden", "ownerWithdrawn"] as const) {
        const before = yield* stored(feedback)
        expectProblem(yield* vote(feedback, { vote: "HELPFUL" }, { session: member }), 404, "feedback-not-found")
        expect(yield* stored(feedback)).toEqual(before)
      }
      expectProblem(yield* vote(randomUUID(), { vote: "HELPFUL" }, { session: member }), 404, "feedback-not-found")
    }))

  it.effect("401 without a session; 403 without the CSRF token; 400 without an Idempotency-Key", () =>
    Effect.gen(function*() {
      const before = yield* stored("ownerAtlas")
      expectProblem(yield* vote("ownerAtlas", { vote: "HELPFUL" }, {}), 401, "unauthenticated")
      const member = yield* signIn("member")
      expectProblem(yield* vote("ownerAtlas", { vote: "HELPFUL" }, { session: member, csrf: null }), 403, "csrf-token-invalid")
      expectProblem(yield* vote("ownerAtlas", { vote: "HELPFUL" }, { session: member, idempotencyKey: null }), 400,
        "idempotency-key-required")
      expect(yield* stored("ownerAtlas")).toEqual(before)
    }))

  it.effect("400 for bodies that break the rules, naming the field", () =>
    Effect.gen(function*() {
      const before = yield* stored("ownerAtlas")
      const member = yield* signIn("member")
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ vote: "MAYBE" }, "/vote"],
        [{ vote: "helpful" }, "/vote"],
        [{}, "/vote"],
        [{ vote: "HELPFUL", extra: 1 }, "/extra"]
      ]
      for (const [body, pointer] of cases) {
        const reply = yield* vote("ownerAtlas", body, { session: member })
        expectProblem(reply, 400)
        expect(reply.body.errors.map((e: { pointer: string }) => e.pointer), reply.text).toContain(pointer)
      }
      const badPath = yield* vote("nope", { vote: "HELPFUL" }, { session: member })
      expectProblem(badPath, 400)
      expect(badPath.body.errors[0]).toMatchObject({ in: "path", pointer: "/feedbackId" })
      expect(yield* stored("ownerAtlas")).toEqual(before)
    }))
})
