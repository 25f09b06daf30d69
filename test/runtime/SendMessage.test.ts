/**
 * Runtime_SendMessage (spec §2.20, §4.4) through the HTTP stack, and the run it
 * starts on the durable engine (QUEUED → RUNNING → SUCCEEDED or FAILED).
 */
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { AgentRuntimeError } from "../../layers/AgentRuntime.js"
import { AgentRun, AgentRunMaxAttempts } from "../../src/runtime/loop/AgentRunWorkflow.js"
import { DemoConversations, demoMessageId, DemoRuns, DemoRuntimeAgents } from "../../src/runtime/demo.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { awaitRun, insertConversation, messageRows, runRow, scriptedRuntime } from "./support.js"
import { DemoAccounts } from "../../src/accounts/demo.js"
import { DemoWorkspaces } from "../../src/workspaces/demo.js"
import { pause } from "../support/time.js"
import { onPostgres } from "../support/database.js"

const server = makeTestServer()
const path = (conversationId: string) => `/api/v1/conversations/${conversationId}/messages`

const send = (conversationId: string, body: unknown, account: keyof typeof DemoAccounts = "member", options: CallOptions = {}) =>
  Effect.gen(function*() {
    return yield* call("POST", path(conversationId), { body, session: yield* signIn(account), ...options })
  })

const messageKeys = ["completedAt", "contentParts", "contentText", "createdAt", "id", "ordinal", "role", "runId", "state"]

layer(server.layer)("Runtime_SendMessage", (it) => {
  it.effect("202: user message COMPLETE, answer PENDING, run QUEUED; the workflow answers deterministically", () =>
    Effect.gen(function*() {
      const reply = yield* send(DemoConversations.chat.id, { content: "And the US market?" })
      expect(reply.status, reply.text).toBe(202)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      const { assistantMessage, run, userMessage } = reply.body.data
      expect(Object.keys(reply.body.data).sort()).toEqual(["assistantMessage", "run", "userMessage"])
      expect(Object.keys(userMessage).sort()).toEqual(messageKeys)
      expect(Object.keys(assistantMessage).sort()).toEqual(messageKeys)
      const at = "2026-06-01T00:00:00.000Z"
      expect(userMessage).toEqual({
        id: userMessage.id, ordinal: "3", role: "user", state: "COMPLETE", contentText: "And the US market?",
        contentParts: [{ type: "text", text: "And the US market?" }], runId: run.id, createdAt: at, completedAt: at
      })
      expect(assistantMessage).toEqual({
        id: assistantMessage.id, ordinal: "4", role: "assistant", state: "PENDING", contentText: null, contentParts: [],
        runId: run.id, createdAt: at, completedAt: null
      })
      expect(run).toEqual({
        id: run.id, conversationId: DemoConversations.chat.id, entityPublicId: DemoRuntimeAgents.configured,
        triggerType: "MESSAGE", state: "QUEUED", version: 1, failureCode: null
      })
      // without parentMessageId the parent is the conversation's last message (the demo answer, ordinal 2)
      const stored = yield* messageRows(DemoConversations.chat.id)
      expect(stored.map((m) => m.ordinal)).toEqual(["1", "2", "3", "4"])
      expect(stored[2]!.parentMessageId).toBe(stored[1]!.id)
      expect(stored[3]!.parentMessageId).toBe(userMessage.id)

      expect(yield* awaitRun(run.id)).toMatchObject({ state: "SUCCEEDED", version: 3, failureCode: null })
      const answer = "demo-echo-1 received: \"And the US market?\" (4 words; turn 3 of the conversation)."
      const after = (yield* messageRows(DemoConversations.chat.id))[3]!
      expect(after).toMatchObject({ state: "COMPLETE", contentText: answer, contentParts: [{ type: "text", text: answer }] })
      expect(after.completedAt).not.toBeNull()

      // the run started again is the same execution: it does not answer twice
      const executionId = yield* AgentRun.execute({ runId: run.id }, { discard: true })
      expect(executionId).toBe(yield* AgentRun.executionId({ runId: run.id }))
      yield* pause(300)
      expect(yield* runRow(run.id)).toMatchObject({ state: "SUCCEEDED", version: 3 })
      expect((yield* messageRows(DemoConversations.chat.id))[3]).toMatchObject({ state: "COMPLETE", contentText: answer })

      // the next message takes the next ordinals
      const next = yield* send(DemoConversations.chat.id, { content: "Thanks" })
      expect(next.status, next.text).toBe(202)
      expect([next.body.data.userMessage.ordinal, next.body.data.assistantMessage.ordinal]).toEqual(["5", "6"])
      expect((yield* awaitRun(next.body.data.run.id)).state).toBe("SUCCEEDED")
    }))

  it.effect("202 with parentMessageId of the conversation: the user message answers it", () =>
    Effect.gen(function*() {
      const conversation = yield* insertConversation(DemoRuntimeAgents.configured, "owner", "PLAYGROUND")
      const first = yield* send(conversation, { content: "one", parentMessageId: null }, "owner")
      expect(first.status, first.text).toBe(202)
      expect(first.body.data.userMessage.ordinal).toBe("1")
      expect(first.body.data.run.triggerType).toBe("PLAYGROUND")
      expect((yield* awaitRun(first.body.data.run.id)).state).toBe("SUCCEEDED")
      const second = yield* send(conversation, { content: "two", parentMessageId: first.body.data.userMessage.id }, "owner")
      expect(second.status, second.text).toBe(202)
      const stored = yield* messageRows(conversation)
      expect(stored.find((m) => m.id === second.body.data.userMessage.id)!.parentMessageId).toBe(first.body.data.userMessage.id)
      expect((yield* awaitRun(second.body.data.run.id)).state).toBe("SUCCEEDED")
    }))

  it.effect("409 run-in-progress while a run of the conversation is active", () =>
    Effect.gen(function*() {
      const reply = yield* send(DemoConversations.active.id, { content: "Are you done?" }, "owner")
      expectProblem(reply, 409, "run-in-progress")
      expect(reply.text).not.toContain("Are you done?")
    }))

  it.effect("404 conversation-not-found: unknown, or its agent not operated by a workspace of the caller", () =>
    Effect.gen(function*() {
      expectProblem(yield* send(randomUUID(), { content: "hi" }), 404, "conversation-not-found")
      expectProblem(yield* send(DemoConversations.chat.id, { content: "hi" }, "outsider"), 404, "conversation-not-found")
    }))

  it.effect("404 message-not-found: parentMessageId of another conversation, or of none", () =>
    Effect.gen(function*() {
      const playgroundMessage = demoMessageId(1) // a message of the playground conversation
      expectProblem(yield* send(DemoConversations.chat.id, { content: "hi", parentMessageId: playgroundMessage }), 404, "message-not-found")
      expectProblem(yield* send(DemoConversations.chat.id, { content: "hi", parentMessageId: randomUUID() }), 404, "message-not-found")
    }))

  it.effect("403 conversation-author-required: another member's conversation, to an OWNER (who sees it)", () =>
    Effect.gen(function*() {
      expectProblem(yield* send(DemoConversations.chat.id, { content: "hi" }, "owner"), 403, "conversation-author-required")
    }))

  it.effect("404 conversation-not-found for whoever may not read the conversation (an EDITOR, a VIEWER: another's); nothing is written", () =>
    Effect.gen(function*() {
      const conversation = yield* insertConversation(DemoRuntimeAgents.configured, "owner", "CHAT")
      for (const account of ["member", "admin"] as const) {
        const read = yield* call("GET", `${path(conversation)}?limit=10`, { session: yield* signIn(account) })
        expectProblem(read, 404, "conversation-not-found")
        const reply = yield* send(conversation, { content: "hi" }, account)
        expectProblem(reply, 404, "conversation-not-found")
        expect(reply.body.detail).toBe(read.body.detail)
      }
      expect(yield* messageRows(conversation)).toEqual([])
    }))

  it.effect("403 role-required: the conversation's author, demoted to VIEWER, may not start runs in it; nothing is written", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const created = yield* call("POST", `/api/v1/agents/${DemoRuntimeAgents.configured}/conversations`, {
        body: { title: "Before the demotion" },
        session: yield* signIn("member")
      })
      expect(created.status, created.text).toBe(201)
      const conversation = created.body.data.id as string
      const setRole = (role: string) =>
        sql`UPDATE workspace_members SET role = ${role}
            WHERE workspace_id = ${DemoWorkspaces.acme.id} AND account_id = ${DemoAccounts.member.id}`.pipe(Effect.orDie)
      yield* setRole("VIEWER")
      yield* Effect.gen(function*() {
        // the author still reads it (whatever the role), but may not send: VIEWERs start no conversations
        const read = yield* call("GET", `${path(conversation)}?limit=10`, { session: yield* signIn("member") })
        expect(read.status, read.text).toBe(200)
        expectProblem(yield* send(conversation, { content: "hi" }), 403, "role-required")
        expect(yield* messageRows(conversation)).toEqual([])
        const [runs] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM runs WHERE conversation_id = ${conversation}`
        expect(runs!.n).toBe(0)
      }).pipe(Effect.ensuring(setRole("EDITOR")))
    }))

  it.effect("422 configuration-missing: the agent has no runtime", () =>
    Effect.gen(function*() {
      const conversation = yield* insertConversation(DemoRuntimeAgents.unconfigured, "member", "CHAT")
      expectProblem(yield* send(conversation, { content: "hi" }), 422, "configuration-missing")
    }))

  it.effect("400: content empty or over 100000 characters, unknown keys, bad parentMessageId, no Idempotency-Key", () =>
    Effect.gen(function*() {
      const id = DemoConversations.chat.id
      for (const body of [{ content: "" }, { content: "x".repeat(100_001) }, {}, { content: "hi", extra: 1 }, { content: "hi", parentMessageId: "nope" }, { content: 5 }]) {
        const reply = yield* send(id, body)
        expectProblem(reply, 400, "invalid-request")
      }
      const long = yield* send(id, { content: "x".repeat(100_001) })
      expect(long.body.errors[0].pointer).toBe("/content")
      expectProblem(yield* send(id, { content: "hi" }, "member", { idempotencyKey: null }), 400, "idempotency-key-required")
      expectProblem(yield* call("POST", path("not-a-uuid"), { body: { content: "hi" }, session: yield* signIn("member") }), 400)
    }))

  it.effect("401 without a session", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("POST", path(DemoConversations.chat.id), { body: { content: "hi" } }), 401, "unauthenticated")
    }))

  it.effect.skipIf(!onPostgres)(
    "concurrent sends in one conversation: exactly one 202, the others 409 (PostgreSQL: needs several connections)",
    () =>
      Effect.gen(function*() {
        const conversation = yield* insertConversation(DemoRuntimeAgents.configured, "owner", "CHAT")
        const owner = yield* signIn("owner")
        const replies = yield* Effect.all(
          Array.from({ length: 6 }, (_, i) => call("POST", path(conversation), { body: { content: `race ${i}` }, session: owner })),
          { concurrency: "unbounded" }
        )
        expect(replies.filter((r) => r.status === 202)).toHaveLength(1)
        for (const r of replies.filter((r) => r.status !== 202)) expectProblem(r, 409, "run-in-progress")
        expect((yield* messageRows(conversation)).map((m) => m.ordinal)).toEqual(["1", "2"])
      })
  )
})

const scripted = scriptedRuntime()
const failing = makeTestServer({}, { runtime: scripted.layer })

layer(failing.layer)("Runtime_SendMessage: runs whose runtime crashes or fails", (it) => {
  const start = (content: string) =>
    Effect.gen(function*() {
      const conversation = yield* insertConversation(DemoRuntimeAgents.configured, "owner", "CHAT")
      const reply = yield* send(conversation, { content }, "owner")
      expect(reply.status, reply.text).toBe(202)
      return { conversation, runId: reply.body.data.run.id as string }
    })

  it.effect("a crashed attempt is run again without duplicating the answer", () =>
    Effect.gen(function*() {
      scripted.script.push("crash")
      const before = scripted.calls()
      const { conversation, runId } = yield* start("hello there")
      expect(yield* awaitRun(runId)).toMatchObject({ state: "SUCCEEDED", version: 3, failureCode: null })
      expect(scripted.calls() - before).toBe(2)
      expect((yield* messageRows(conversation))[1]).toMatchObject({
        state: "COMPLETE",
        contentText: "demo-echo-1 received: \"hello there\" (2 words; turn 1 of the conversation)."
      })
    }))

  it.effect("a failure that is not retryable ends the run FAILED with its failureCode at once, the answer FAILED", () =>
    Effect.gen(function*() {
      scripted.script.push(new AgentRuntimeError({ code: "MODEL_REFUSED", retryable: false, message: "refused" }))
      const before = scripted.calls()
      const { conversation, runId } = yield* start("do something forbidden")
      expect(yield* awaitRun(runId)).toMatchObject({ state: "FAILED", failureCode: "MODEL_REFUSED", version: 3 })
      expect(scripted.calls() - before).toBe(1)
      const answer = (yield* messageRows(conversation))[1]!
      expect(answer).toMatchObject({ role: "assistant", state: "FAILED", contentText: "" })
      expect(answer.completedAt).not.toBeNull()
      // the conversation is free again
      const again = yield* send(conversation, { content: "something else" }, "owner")
      expect(again.status, again.text).toBe(202)
      expect(again.body.data.userMessage.ordinal).toBe("3")
      expect((yield* awaitRun(again.body.data.run.id)).state).toBe("SUCCEEDED")
    }))

  it.effect(`a retryable failure is tried ${AgentRunMaxAttempts} times, then fails the run with its failureCode`, () =>
    Effect.gen(function*() {
      const flaky = new AgentRuntimeError({ code: "MODEL_UNAVAILABLE", retryable: true, message: "overloaded" })
      for (let i = 0; i < AgentRunMaxAttempts; i++) scripted.script.push(flaky)
      const before = scripted.calls()
      const { runId } = yield* start("are you there?")
      expect(yield* awaitRun(runId)).toMatchObject({ state: "FAILED", failureCode: "MODEL_UNAVAILABLE", version: 3 })
      expect(scripted.calls() - before).toBe(AgentRunMaxAttempts)
    }))

  it.effect("a retryable failure that clears up on a later attempt ends SUCCEEDED", () =>
    Effect.gen(function*() {
      scripted.script.push(new AgentRuntimeError({ code: "MODEL_UNAVAILABLE", retryable: true, message: "overloaded" }))
      const { runId } = yield* start("second time lucky")
      expect(yield* awaitRun(runId)).toMatchObject({ state: "SUCCEEDED", version: 3 })
    }))

  it.effect("a run started in a transaction that rolls back never runs; started in one that commits, it runs", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const queued = DemoRuns[4] // QUEUED, a scheduled run without a conversation: its workflow fails it at once
      const executionId = yield* AgentRun.executionId({ runId: queued.id })
      const rolledBack = yield* sql.withTransaction(Effect.gen(function*() {
        yield* AgentRun.execute({ runId: queued.id }, { discard: true })
        return yield* Effect.fail("rolled back")
      })).pipe(Effect.flip)
      expect(rolledBack).toBe("rolled back")
      yield* pause(1_000) // twenty times the engine's poll interval in tests
      expect(yield* AgentRun.poll(executionId)).toBeUndefined()
      expect(yield* runRow(queued.id)).toMatchObject({ state: "QUEUED", version: 2 })

      yield* sql.withTransaction(AgentRun.execute({ runId: queued.id }, { discard: true }))
      expect(yield* awaitRun(queued.id)).toMatchObject({ state: "FAILED", failureCode: "RUNTIME_NOT_CONFIGURED", version: 3 })
    }))
})
