/** Runtime_ClearPlaygroundRunData (spec §2.19, §4.4) through the HTTP stack, on the demo data. */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoConversations, DemoRuns, DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { awaitRun, insertConversation, messageRows, runRow, scriptedRuntime } from "./support.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"

const runtime = scriptedRuntime()
const server = makeTestServer({}, { runtime: runtime.layer })
const path = (runId: string) => `/api/v1/runs/${runId}/playground-data`

const clear = (runId: string, account: keyof typeof DemoAccounts = "owner", options: CallOptions = {}) =>
  Effect.gen(function*() {
    return yield* call("DELETE", path(runId), { session: yield* signIn(account), ...options })
  })

const [succeeded, failed, chat, running, scheduled] = DemoRuns

/** A playground conversation of `account` with one finished run (the author sends one message). */
const playgroundRun = (account: keyof typeof DemoAccounts) =>
  Effect.gen(function*() {
    const id = yield* insertConversation(DemoRuntimeAgents.configured, account, "PLAYGROUND")
    const sent = yield* call("POST", `/api/v1/conversations/${id}/messages`, {
      body: { content: "something private" },
      session: yield* signIn(account)
    })
    expect(sent.status, sent.text).toBe(202)
    const runId = sent.body.data.run.id as string
    expect((yield* awaitRun(runId)).state).toBe("SUCCEEDED")
    return { id, runId }
  })

layer(server.layer)("Runtime_ClearPlaygroundRunData", (it) => {
  it.effect("200: the conversation's messages become REDACTED, dataClearedAt is set; again → the same result", () =>
    Effect.gen(function*() {
      const reply = yield* clear(succeeded.id)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(reply.body.data).toEqual({
        runId: succeeded.id,
        conversationId: DemoConversations.playground.id,
        state: "SUCCEEDED",
        retentionExpiresAt: "2027-03-22T00:00:00.000Z",
        dataClearedAt: "2026-06-01T00:00:00.000Z"
      })
      const messages = yield* messageRows(DemoConversations.playground.id)
      expect(messages).toHaveLength(4)
      for (const m of messages) expect(m).toMatchObject({ state: "REDACTED", contentText: null, contentParts: [] })
      expect(messages.map((m) => [m.ordinal, m.role])).toEqual([["1", "user"], ["2", "assistant"], ["3", "user"], ["4", "assistant"]])
      // the other (FAILED) run of the conversation is cleared with it; other conversations are untouched
      expect((yield* runRow(failed.id)).dataClearedAt).toBe("2026-06-01T00:00:00.000Z")
      expect((yield* messageRows(DemoConversations.chat.id))[0]!.state).toBe("COMPLETE")

      server.clock.advance(60_000)
      const again = yield* clear(succeeded.id)
      expect(again.status, again.text).toBe(200)
      expect(again.body.data).toEqual(reply.body.data)
      const viaOther = yield* clear(failed.id)
      expect(viaOther.status, viaOther.text).toBe(200)
      expect(viaOther.body.data).toMatchObject({ runId: failed.id, state: "FAILED", dataClearedAt: "2026-06-01T00:00:00.000Z" })
    }))

  it.effect("409 run-in-progress: the run is active, or another run of its conversation is", () =>
    Effect.gen(function*() {
      expectProblem(yield* clear(running.id), 409, "run-in-progress")
      expect((yield* messageRows(DemoConversations.active.id))[1]!.state).toBe("STREAMING")

      const conversation = yield* insertConversation(DemoRuntimeAgents.configured, "owner", "PLAYGROUND")
      const owner = yield* signIn("owner")
      const send = (content: string) =>
        call("POST", `/api/v1/conversations/${conversation}/messages`, { body: { content }, session: owner })
      const first = yield* send("first")
      expect(first.status, first.text).toBe(202)
      expect((yield* awaitRun(first.body.data.run.id)).state).toBe("SUCCEEDED")
      runtime.hold() // the second run stays active until released
      const second = yield* send("second")
      expect(second.status, second.text).toBe(202)
      expectProblem(yield* clear(first.body.data.run.id), 409, "run-in-progress")
      runtime.release()
      expect((yield* awaitRun(second.body.data.run.id)).state).toBe("SUCCEEDED")
      const reply = yield* clear(first.body.data.run.id)
      expect(reply.status, reply.text).toBe(200)
      expect((yield* messageRows(conversation)).map((m) => m.state)).toEqual(["REDACTED", "REDACTED", "REDACTED", "REDACTED"])
      expect((yield* runRow(second.body.data.run.id)).dataClearedAt).not.toBeNull()
    }))

  it.effect("422 playground-run-required: a chat run, a scheduled run", () =>
    Effect.gen(function*() {
      expectProblem(yield* clear(chat.id), 422, "playground-run-required")
      expectProblem(yield* clear(scheduled.id), 422, "playground-run-required")
      expect((yield* messageRows(DemoConversations.chat.id))[0]!.contentText).toBe(chat.ask)
    }))

  it.effect("404 run-not-found: unknown run, or its agent not operated by a workspace of the caller", () =>
    Effect.gen(function*() {
      expectProblem(yield* clear(randomUUID()), 404, "run-not-found")
      expectProblem(yield* clear(running.id, "outsider"), 404, "run-not-found")
    }))

  it.effect("404 run-not-found for whoever may not read the run: an EDITOR clearing the owner's playground conversation changes nothing", () =>
    Effect.gen(function*() {
      const conversation = yield* playgroundRun("owner")
      const runId = conversation.runId
      const before = yield* messageRows(conversation.id)
      expect(before.map((m) => m.state)).toEqual(["COMPLETE", "COMPLETE"])

      // the EDITOR (member) may clear playground data by role, but does not see the owner's conversation
      const read = yield* call("GET", `/api/v1/runs/${runId}`, { session: yield* signIn("member") })
      expectProblem(read, 404, "run-not-found")
      const cleared = yield* clear(runId, "member")
      expectProblem(cleared, 404, "run-not-found")
      expect(cleared.body.detail).toBe(read.body.detail)
      expect(yield* messageRows(conversation.id)).toEqual(before)
      expect((yield* runRow(runId)).dataClearedAt).toBeNull()

      // a VIEWER who does not see it is told the same, not that a role is missing
      expectProblem(yield* clear(runId, "admin"), 404, "run-not-found")
      expectProblem(yield* clear(running.id, "admin"), 404, "run-not-found")
      expect(yield* messageRows(conversation.id)).toEqual(before)

      // its author clears it
      const reply = yield* clear(runId, "owner")
      expect(reply.status, reply.text).toBe(200)
      expect((yield* messageRows(conversation.id)).map((m) => m.state)).toEqual(["REDACTED", "REDACTED"])
    }))

  it.effect("an OWNER clears an EDITOR's playground conversation (OWNER and ADMIN see every conversation of the agent)", () =>
    Effect.gen(function*() {
      const conversation = yield* playgroundRun("member")
      const reply = yield* clear(conversation.runId, "owner")
      expect(reply.status, reply.text).toBe(200)
      expect((yield* messageRows(conversation.id)).map((m) => m.state)).toEqual(["REDACTED", "REDACTED"])
    }))

  it.effect("403 role-required: a VIEWER who sees the run (its conversation's author, demoted since) may not clear it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // a VIEWER starts no runs (Runtime_SendMessage): the EDITOR starts one, then is demoted
      const conversation = yield* playgroundRun("member")
      const setRole = (role: string) =>
        sql`UPDATE workspace_members SET role = ${role}
            WHERE workspace_id = ${DemoWorkspaces.acme.id} AND account_id = ${DemoAccounts.member.id}`.pipe(Effect.orDie)
      yield* setRole("VIEWER")
      yield* Effect.gen(function*() {
        const read = yield* call("GET", `/api/v1/runs/${conversation.runId}`, { session: yield* signIn("member") })
        expect(read.status, read.text).toBe(200)
        expectProblem(yield* clear(conversation.runId, "member"), 403, "role-required")
        expect((yield* messageRows(conversation.id)).map((m) => m.state)).toEqual(["COMPLETE", "COMPLETE"])
      }).pipe(Effect.ensuring(setRole("EDITOR")))
    }))

  it.effect("400: runId not a uuid; no Idempotency-Key", () =>
    Effect.gen(function*() {
      expectProblem(yield* clear("not-a-uuid"), 400, "invalid-request")
      expectProblem(yield* clear(running.id, "owner", { idempotencyKey: null }), 400, "idempotency-key-required")
    }))

  it.effect("401 without a session", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("DELETE", path(succeeded.id)), 401, "unauthenticated")
    }))
})
