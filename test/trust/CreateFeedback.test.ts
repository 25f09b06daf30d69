/**
 * Trust_CreateFeedback: POST /api/v1/agents/{entityPublicId}/feedback.
 * Feedback speaks for a workspace; one live feedback per workspace, agent and category,
 * edited by revision; authenticity VERIFIED_INTERACTION after an order or a run; the write
 * marks the agent's evidence (reputation_dirty_agents) in its transaction.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoOrders } from "../../demo/commerce/seed.js"
import { DemoFeedback } from "../../demo/trust/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { call, type CallOptions, expectMeta, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { clearMarks, markOf } from "../support/evidenceMarks.js"

const feedbackPath = (agentIndex: number | string) =>
  `/api/v1/agents/${typeof agentIndex === "number" ? DemoAgents[agentIndex]!.id : agentIndex}/feedback`

const baseBody = (workspace: keyof typeof DemoWorkspaces, category: string) => ({
  workspaceId: DemoWorkspaces[workspace].id,
  category,
  ratingPpm: 750_000,
  title: "Solid monitoring",
  body: "Caught two outages before our users did."
})

const create = (agentIndex: number | string, body: unknown, options: CallOptions) =>
  call("POST", feedbackPath(agentIndex), { body, ...options })

/** The live feedback rows of a workspace on an agent in a category. */
const liveRows = (workspace: keyof typeof DemoWorkspaces, agentIndex: number, category: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ id: string; revision: number; authorAccountId: string; authenticity: string }>`
      SELECT id, revision::int AS revision, author_account_id AS "authorAccountId", authenticity_state AS authenticity
      FROM feedback WHERE workspace_id = ${DemoWorkspaces[workspace].id} AND agent_id = ${DemoAgents[agentIndex]!.id}
        AND category = ${category} AND state <> 'WITHDRAWN'`
  }).pipe(Effect.orDie)

const feedbackCount = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM feedback`)
  .pipe(Effect.map((rows) => rows[0]!.n), Effect.orDie)

/** Inserts an order of `workspace` for the agent in `state`, copying the demo order's other columns (no operation creates orders). */
const insertOrder = (workspace: keyof typeof DemoWorkspaces, agentIndex: number, state: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    yield* sql`INSERT INTO orders (id, order_number, state, version, workspace_id, agent_id, product_code, product_name,
                 network_id, asset_id, subtotal_units, discount_units, total_units, terms_version, policy_version,
                 created_at, updated_at)
               SELECT ${id}, ${`ORD-TEST-${id.slice(0, 8)}`}, ${state}, 1, ${DemoWorkspaces[workspace].id},
                 ${DemoAgents[agentIndex]!.id}, product_code, product_name, network_id, asset_id, subtotal_units,
                 discount_units, total_units, terms_version, policy_version, created_at, updated_at
               FROM orders WHERE id = ${DemoOrders[0].id}`
    return id
  }).pipe(Effect.orDie)

const setOrderState = (id: string, state: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE orders SET state = ${state} WHERE id = ${id}`).pipe(Effect.orDie)

const successServer = makeTestServer()

layer(successServer.layer)("Trust_CreateFeedback: create and edit", (it) => {
  it.effect("201 PUBLISHED at revision 1 (UNVERIFIED), marked as evidence; a replay answers the same; a second create 409s", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const beacon = DemoAgents[1].id
      yield* clearMarks
      const key = randomUUID()
      const body = baseBody("outsider", "QUALITY")
      const reply = yield* create(1, body, { session: outsider, idempotencyKey: key })
      expect(reply.status, reply.text).toBe(201)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      const data = reply.body.data
      expect(data).toEqual({
        publicId: data.publicId,
        entityPublicId: beacon,
        ratingPpm: 750_000,
        category: "QUALITY",
        title: body.title,
        body: body.body,
        state: "PUBLISHED",
        authenticityState: "UNVERIFIED",
        revision: 1,
        createdAt: TestEpoch.toISOString(),
        updatedAt: TestEpoch.toISOString(),
        helpfulCount: "0",
        notHelpfulCount: "0",
        responseCount: "0"
      })
      expect(yield* liveRows("outsider", 1, "QUALITY")).toEqual([
        { id: data.publicId, revision: 1, authorAccountId: DemoAccounts.outsider.id, authenticity: "UNVERIFIED" }
      ])
      expect(yield* markOf(beacon)).toBe(TestEpoch.toISOString())
      // same key: the stored response, nothing written again
      const replay = yield* create(1, body, { session: outsider, idempotencyKey: key })
      expect(replay.status).toBe(201)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.text).toBe(reply.text)
      // a new create while one is live: 409 feedback-exists, telling to send expectedRevision
      const again = yield* create(1, { ...body, title: "Second try" }, { session: outsider })
      expectProblem(again, 409, "feedback-exists")
      expect(again.body.detail).toContain("expectedRevision")
      expect(yield* liveRows("outsider", 1, "QUALITY")).toHaveLength(1)
      // another category is another feedback
      const other = yield* create(1, baseBody("outsider", "VALUE"), { session: outsider })
      expect(other.status, other.text).toBe(201)
      expect(other.body.data.publicId).not.toBe(data.publicId)
    }))

  it.effect("edit by revision: 200, revision + 1, fields replaced; stale revision 409; none live 404", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const first = yield* create(1, baseBody("outsider", "RELIABILITY"), { session: outsider })
      expect(first.status, first.text).toBe(201)
      const edit = { ...baseBody("outsider", "RELIABILITY"), ratingPpm: 300_000, title: "Missed an outage", body: "", expectedRevision: 1 }
      const edited = yield* create(1, edit, { session: outsider })
      expect(edited.status, edited.text).toBe(200)
      expect(edited.body.data).toEqual({
        ...first.body.data,
        ratingPpm: 300_000,
        title: "Missed an outage",
        body: "",
        revision: 2
      })
      expectProblem(yield* create(1, edit, { session: outsider }), 409, "version-conflict")
      const stale = yield* create(1, { ...edit, expectedRevision: 5 }, { session: outsider })
      expectProblem(stale, 409, "version-conflict")
      expect(stale.body.detail).toMatch(/\brevision 2\b/)
      const none = yield* create(1, { ...baseBody("outsider", "SAFETY"), expectedRevision: 1 }, { session: outsider })
      expectProblem(none, 404, "feedback-not-found")
      expect(yield* liveRows("outsider", 1, "SAFETY")).toEqual([])
      expect(yield* liveRows("outsider", 1, "RELIABILITY")).toMatchObject([{ revision: 2 }])
    }))

  it.effect("VERIFIED_INTERACTION once the workspace has a paid order for the agent (not an unpaid one); trust figures count it", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const beacon = DemoAgents[1].id
      const body = baseBody("outsider", "COMMUNICATION")
      const created = yield* create(1, body, { session: outsider })
      expect(created.body.data).toMatchObject({ revision: 1, authenticityState: "UNVERIFIED" })
      const order = yield* insertOrder("outsider", 1, "PAYMENT_PENDING")
      const unpaid = yield* create(1, { ...body, expectedRevision: 1 }, { session: outsider })
      expect(unpaid.body.data).toMatchObject({ revision: 2, authenticityState: "UNVERIFIED" })
      // an order of another workspace, or for another agent, does not count either
      yield* insertOrder("acme", 1, "PAID")
      yield* insertOrder("outsider", 3, "PAID")
      const others = yield* create(1, { ...body, expectedRevision: 2 }, { session: outsider })
      expect(others.body.data).toMatchObject({ revision: 3, authenticityState: "UNVERIFIED" })
      yield* setOrderState(order, "PAID")
      const paid = yield* create(1, { ...body, expectedRevision: 3 }, { session: outsider })
      expect(paid.status, paid.text).toBe(200)
      expect(paid.body.data).toMatchObject({ revision: 4, authenticityState: "VERIFIED_INTERACTION" })
      // the profile's trust summary (view agent_trust_figures, migration 0030) counts it as verified
      const sql = yield* SqlClient.SqlClient
      const [figures] = yield* sql<{ verified: number }>`SELECT verified_feedback_count::int AS verified
                                                         FROM agent_trust_figures WHERE agent_id = ${beacon}`
      const [expected] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM feedback WHERE agent_id = ${beacon}
                                                    AND state = 'PUBLISHED' AND authenticity_state IN ('VERIFIED', 'VERIFIED_INTERACTION')`
      expect(expected!.n).toBeGreaterThanOrEqual(1)
      expect(figures!.verified).toBe(expected!.n)
      // a new create for a new category evaluates it too
      const fresh = yield* create(1, baseBody("outsider", "OTHER"), { session: outsider })
      expect(fresh.body.data).toMatchObject({ revision: 1, authenticityState: "VERIFIED_INTERACTION" })
    }))

  it.effect("VERIFIED_INTERACTION after a run of the agent started by a member of the workspace (playground runs do not count)", () =>
    Effect.gen(function*() {
      // the owner is a member of Acme (which operates Atlas) and of Frozen Holdings; the demo has only the
      // owner's playground runs of Atlas, so Frozen Holdings has not interacted with it yet
      const owner = yield* signIn("owner")
      const atlas = DemoAgents[0].id
      const body = baseBody("locked", "SAFETY")
      const created = yield* create(0, body, { session: owner })
      expect(created.status, created.text).toBe(201)
      expect(created.body.data.authenticityState).toBe("UNVERIFIED")
      // a chat with Atlas through the real operations: the message starts a run
      const conversation = yield* call("POST", `/api/v1/agents/${atlas}/conversations`, { session: owner, body: { title: "Evidence" } })
      expect(conversation.status, conversation.text).toBe(201)
      const sent = yield* call("POST", `/api/v1/conversations/${conversation.body.data.id}/messages`, {
        session: owner,
        body: { content: "Summarize the latest research on agent trust." }
      })
      expect(sent.status, sent.text).toBe(202)
      const edited = yield* create(0, { ...body, expectedRevision: 1 }, { session: owner })
      expect(edited.status, edited.text).toBe(200)
      expect(edited.body.data).toMatchObject({ revision: 2, authenticityState: "VERIFIED_INTERACTION" })
    }))

  it.effect("a withdrawn feedback is not live: the workspace can create a new one; the withdrawal marks evidence too", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const atlas = DemoAgents[0].id
      const demo = DemoFeedback.outsiderAtlas
      yield* clearMarks
      const withdrawn = yield* call("POST", `/api/v1/feedback/${demo.id}/withdraw`, {
        session: outsider,
        body: { expectedRevision: 1, reason: "Superseded by a new review." }
      })
      expect(withdrawn.status, withdrawn.text).toBe(200)
      expect(yield* markOf(atlas)).toBe(TestEpoch.toISOString())
      const again = yield* create(0, baseBody("outsider", demo.category), { session: outsider })
      expect(again.status, again.text).toBe(201)
      expect(again.body.data.publicId).not.toBe(demo.id)
    }))

  it.effect("concurrent creates by one workspace end in one feedback: one 201, the others 409 feedback-exists", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const replies = yield* Effect.all(
        Array.from({ length: 5 }, (_, i) => create(4, { ...baseBody("outsider", "QUALITY"), ratingPpm: i * 1000 }, { session: outsider })),
        { concurrency: "unbounded" }
      )
      expect(replies.filter((r) => r.status === 201), replies.map((r) => r.text).join("\n")).toHaveLength(1)
      for (const r of replies.filter((r) => r.status !== 201)) expectProblem(r, 409, "feedback-exists")
      expect(yield* liveRows("outsider", 4, "QUALITY")).toHaveLength(1)
    }))
})

const refusalServer = makeTestServer()

layer(refusalServer.layer)("Trust_CreateFeedback: refusals", (it) => {
  const expectNothingWritten = (before: number) =>
    Effect.gen(function*() {
      expect(yield* feedbackCount).toBe(before)
    })

  it.effect("404 workspace-not-found for a workspace the caller is not a member of (or none)", () =>
    Effect.gen(function*() {
      const before = yield* feedbackCount
      const member = yield* signIn("member")
      const reply = yield* create(2, baseBody("outsider", "QUALITY"), { session: member })
      expectProblem(reply, 404, "workspace-not-found")
      expect(reply.body.detail).not.toContain(DemoWorkspaces.outsider.id)
      expectProblem(yield* create(2, { ...baseBody("acme", "QUALITY"), workspaceId: randomUUID() }, { session: member }), 404,
        "workspace-not-found")
      yield* expectNothingWritten(before)
    }))

  it.effect("404 agent-not-found for an unknown or unlisted agent; 409 invalid-state for a RETIRED one", () =>
    Effect.gen(function*() {
      const before = yield* feedbackCount
      const outsider = yield* signIn("outsider")
      expectProblem(yield* create(randomUUID(), baseBody("outsider", "QUALITY"), { session: outsider }), 404, "agent-not-found")
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE agents SET listed_at = NULL WHERE id = ${DemoAgents[7].id}`
      expectProblem(yield* create(7, baseBody("outsider", "QUALITY"), { session: outsider }), 404, "agent-not-found")
      // Beacon retired through Agents_RetireAgent by its operator
      const owner = yield* signIn("owner")
      const retired = yield* call("POST", `/api/v1/agents/${DemoAgents[1].id}/retire`, { session: owner, body: { expectedVersion: 1 } })
      expect(retired.status, retired.text).toBe(200)
      expectProblem(yield* create(1, baseBody("outsider", "QUALITY"), { session: outsider }), 409, "invalid-state")
      yield* expectNothingWritten(before)
    }))

  it.effect("the workspace that operates the agent may rate it: its runs of the agent make the feedback VERIFIED_INTERACTION", () =>
    Effect.gen(function*() {
      // Acme operates Atlas; the member's conversation with Atlas starts a run of it
      const member = yield* signIn("member")
      const atlas = DemoAgents[0].id
      const conversation = yield* call("POST", `/api/v1/agents/${atlas}/conversations`, { session: member, body: { title: "Own agent" } })
      expect(conversation.status, conversation.text).toBe(201)
      const sent = yield* call("POST", `/api/v1/conversations/${conversation.body.data.id}/messages`, {
        session: member,
        body: { content: "What changed this week?" }
      })
      expect(sent.status, sent.text).toBe(202)
      const created = yield* create(0, baseBody("acme", "VALUE"), { session: member })
      expect(created.status, created.text).toBe(201)
      expect(created.body.data).toMatchObject({ revision: 1, authenticityState: "VERIFIED_INTERACTION", state: "PUBLISHED" })
    }))

  it.effect("401 without a session; 403 without the CSRF token; 400 without an Idempotency-Key", () =>
    Effect.gen(function*() {
      const before = yield* feedbackCount
      expectProblem(yield* create(2, baseBody("acme", "VALUE"), {}), 401, "unauthenticated")
      const owner: Session = yield* signIn("owner")
      expectProblem(yield* create(2, baseBody("acme", "VALUE"), { session: owner, csrf: null }), 403, "csrf-token-invalid")
      expectProblem(yield* create(2, baseBody("acme", "VALUE"), { session: owner, idempotencyKey: null }), 400,
        "idempotency-key-required")
      yield* expectNothingWritten(before)
    }))

  it.effect("400 for bodies that break the rules, naming the field", () =>
    Effect.gen(function*() {
      const before = yield* feedbackCount
      const owner = yield* signIn("owner")
      const valid = baseBody("acme", "VALUE")
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ ...valid, ratingPpm: 1_000_001 }, "/ratingPpm"],
        [{ ...valid, ratingPpm: -1 }, "/ratingPpm"],
        [{ ...valid, ratingPpm: 1.5 }, "/ratingPpm"],
        [{ ...valid, ratingPpm: "900000" }, "/ratingPpm"],
        [{ ...valid, title: "" }, "/title"],
        [{ ...valid, title: "   " }, "/title"],
        [{ ...valid, title: "x".repeat(201) }, "/title"],
        [{ ...valid, body: "x".repeat(10_001) }, "/body"],
        [{ ...valid, category: "SPEED" }, "/category"],
        [{ ...valid, workspaceId: "acme" }, "/workspaceId"],
        [{ ...valid, expectedRevision: 0 }, "/expectedRevision"],
        [{ ...valid, extra: true }, "/extra"],
        [{ category: "VALUE", ratingPpm: 1, title: "t", body: "" }, "/workspaceId"]
      ]
      for (const [body, pointer] of cases) {
        const reply = yield* create(2, body, { session: owner })
        expectProblem(reply, 400)
        expect(reply.body.errors.map((e: { pointer: string }) => e.pointer), reply.text).toContain(pointer)
      }
      const badPath = yield* create("nope", valid, { session: owner })
      expectProblem(badPath, 400)
      expect(badPath.body.errors[0]).toMatchObject({ in: "path", pointer: "/entityPublicId" })
      yield* expectNothingWritten(before)
    }))
})
