/**
 * Who may act on a run (Runtime_CancelRun, Runtime_DecideToolApproval) through the HTTP
 * stack: whoever may read it (Runtime_GetRun) with the OWNER, ADMIN, EDITOR or OPERATOR
 * role; anyone else gets the read's 404 `run-not-found` and nothing changes. The runs
 * wait for a person on a built-in tool granted APPROVAL_REQUIRED (the deterministic
 * runtime's `/tool <name> <json>` directive). The run loop itself is RunLoop.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoRuns, DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { ensureBuiltinTools } from "../../src/runtime/tools/BuiltinTools.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { IdsSequence } from "../../layers/Ids.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { awaitState, send, toolCalls } from "./runLoopSupport.js"
import { awaitRun, insertConversation, messageRows, runRow } from "./support.js"

const agent = DemoRuntimeAgents.configured
const server = makeTestServer()

type Account = keyof typeof DemoAccounts

/** The agent's built-in tools, `directory.get_agent` granted APPROVAL_REQUIRED. */
const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* ensureBuiltinTools(agent, TestEpoch)
  yield* sql`UPDATE agent_runtime_configs SET tool_grants = ${JSON.stringify({ "directory.get_agent": "APPROVAL_REQUIRED" })}::jsonb
             WHERE agent_id = ${agent}`
}).pipe(Effect.provide(IdsSequence("000000ab")), Effect.orDie)

/** Sets `account`'s role in the workspace operating the agent (a demotion or promotion). */
const setRole = (account: Account, role: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE workspace_members SET role = ${role}
               WHERE workspace_id = ${DemoWorkspaces.acme.id} AND account_id = ${DemoAccounts[account].id}`
  }).pipe(Effect.orDie)

/** A playground conversation of `author` whose run waits for a decision on its one tool call. */
const waitingRun = (author: Account) =>
  Effect.gen(function*() {
    const conversation = yield* insertConversation(agent, author, "PLAYGROUND")
    const runId = yield* send(yield* signIn(author), conversation, `/tool directory__get_agent {"entityId":"${agent}"}`)
    const run = yield* awaitState(runId, "APPROVAL_REQUIRED")
    const [toolCall] = yield* toolCalls(runId)
    expect(toolCall).toMatchObject({ state: "APPROVAL_REQUIRED", approvalState: "PENDING" })
    return { conversation, runId, version: run.version, toolCallId: toolCall!.id }
  })

const decide = (account: Account, runId: string, body: { toolCallId: string; decision: string; expectedVersion: number }) =>
  Effect.gen(function*() {
    return yield* call("POST", `/api/v1/runs/${runId}/approvals`, { session: yield* signIn(account), body })
  })

const cancel = (account: Account, runId: string, expectedVersion: number) =>
  Effect.gen(function*() {
    return yield* call("POST", `/api/v1/runs/${runId}/cancel`, { session: yield* signIn(account), body: { expectedVersion } })
  })

/** The run, its tool calls and its messages as stored: what must not change. */
const snapshot = (run: { conversation: string; runId: string }) =>
  Effect.gen(function*() {
    return {
      run: yield* runRow(run.runId),
      toolCalls: yield* toolCalls(run.runId),
      messages: yield* messageRows(run.conversation)
    }
  })

/**
 * `account` (a member who does not see the run) may neither approve, deny nor cancel it
 * (`first` asked first): each is the read's 404 `run-not-found` (the same detail), and
 * nothing changes.
 */
const refusedAsUnseen = (
  account: Account,
  run: { conversation: string; runId: string; version: number; toolCallId: string },
  first: "decide" | "cancel"
) =>
  Effect.gen(function*() {
    const before = yield* snapshot(run)
    expect(before.run).toMatchObject({ state: "APPROVAL_REQUIRED", version: run.version })
    const read = yield* call("GET", `/api/v1/runs/${run.runId}`, { session: yield* signIn(account) })
    expectProblem(read, 404, "run-not-found")
    const asks = [
      ...["APPROVE", "DENY"].map((decision) =>
        decide(account, run.runId, { toolCallId: run.toolCallId, decision, expectedVersion: run.version })
      ),
      cancel(account, run.runId, run.version)
    ]
    for (const ask of first === "decide" ? asks : asks.reverse()) {
      const reply = yield* ask
      expectProblem(reply, 404, "run-not-found")
      expect(reply.body.detail).toBe(read.body.detail)
      expect(reply.text).not.toContain("directory.get_agent")
    }
    expect(yield* snapshot(run)).toEqual(before)
  })

layer(server.layer, { excludeTestServices: true })("run control: who may act on a run", (it) => {
  it.effect("an EDITOR who cannot read the owner's playground run gets 404 run-not-found deciding or cancelling it, nothing changes; its author and an OWNER still decide", () =>
    Effect.gen(function*() {
      yield* setup
      const run = yield* waitingRun("owner")
      yield* refusedAsUnseen("member", run, "decide")
      // a VIEWER who does not see it is told the same, not that a role is missing
      yield* refusedAsUnseen("admin", run, "decide")

      const approved = yield* decide("owner", run.runId, { toolCallId: run.toolCallId, decision: "APPROVE", expectedVersion: run.version })
      expect(approved.status, approved.text).toBe(200)
      expect(approved.body.data.run).toMatchObject({ id: run.runId, state: "RUNNING", version: run.version + 1 })
      expect(approved.body.data.toolCall).toMatchObject({ id: run.toolCallId, approvalState: "APPROVED" })
      expect((yield* awaitRun(run.runId)).state).toBe("SUCCEEDED")

      // an OWNER sees every conversation of the agent: it decides on an EDITOR's run; the EDITOR, its author, too
      const editors = yield* waitingRun("member")
      const denied = yield* decide("owner", editors.runId, { toolCallId: editors.toolCallId, decision: "DENY", expectedVersion: editors.version })
      expect(denied.status, denied.text).toBe(200)
      expect(denied.body.data.toolCall).toMatchObject({ id: editors.toolCallId, state: "DENIED", approvalState: "DENIED" })
      expect((yield* awaitRun(editors.runId)).state).toBe("SUCCEEDED")
      const again = yield* waitingRun("member")
      const byAuthor = yield* decide("member", again.runId, { toolCallId: again.toolCallId, decision: "APPROVE", expectedVersion: again.version })
      expect(byAuthor.status, byAuthor.text).toBe(200)
      expect((yield* awaitRun(again.runId)).state).toBe("SUCCEEDED")
    }))

  it.effect("an OPERATOR who cannot read the owner's playground run gets 404 run-not-found cancelling or deciding it, nothing changes; its author and an OWNER still cancel", () =>
    Effect.gen(function*() {
      yield* setup
      const run = yield* waitingRun("owner")
      yield* setRole("member", "OPERATOR")
      yield* refusedAsUnseen("member", run, "cancel").pipe(Effect.ensuring(setRole("member", "EDITOR")))

      const cancelled = yield* cancel("owner", run.runId, run.version)
      expect(cancelled.status, cancelled.text).toBe(200)
      expect(cancelled.body.data).toMatchObject({ id: run.runId, state: "CANCELLED", version: run.version + 1 })

      // an OWNER cancels an EDITOR's run
      const editors = yield* waitingRun("member")
      const byOwner = yield* cancel("owner", editors.runId, editors.version)
      expect(byOwner.status, byOwner.text).toBe(200)
      expect(byOwner.body.data).toMatchObject({ id: editors.runId, state: "CANCELLED" })

      // a run without a conversation (a scheduled run) is read, so controlled, by every member with the role
      const scheduled = DemoRuns[4]
      yield* setRole("member", "OPERATOR")
      const reply = yield* cancel("member", scheduled.id, scheduled.version).pipe(Effect.ensuring(setRole("member", "EDITOR")))
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toMatchObject({ id: scheduled.id, triggerType: "SCHEDULE", state: "CANCELLED" })

      // the author of a run's conversation, demoted to VIEWER, still sees it but may not control it (403 role-required)
      const own = yield* waitingRun("member")
      yield* setRole("member", "VIEWER")
      yield* Effect.gen(function*() {
        const read = yield* call("GET", `/api/v1/runs/${own.runId}`, { session: yield* signIn("member") })
        expect(read.status, read.text).toBe(200)
        const before = yield* snapshot(own)
        expectProblem(yield* decide("member", own.runId, { toolCallId: own.toolCallId, decision: "APPROVE", expectedVersion: own.version }), 403, "role-required")
        expectProblem(yield* cancel("member", own.runId, own.version), 403, "role-required")
        expect(yield* snapshot(own)).toEqual(before)
      }).pipe(Effect.ensuring(setRole("member", "EDITOR")))
      const byAuthor = yield* cancel("member", own.runId, own.version)
      expect(byAuthor.status, byAuthor.text).toBe(200)
    }))
})
