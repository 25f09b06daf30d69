/**
 * The run loop through the HTTP stack and the durable engine: the
 * deterministic runtime's `/tool <name> <json>` directive drives tool calls to the
 * directory's built-in tools and to an MCP tool of the agent's connection (a real MCP
 * server on 127.0.0.1, test/support/mcpServer.ts); argument validation; approvals
 * (Runtime_DecideToolApproval: approve, deny), Runtime_CancelRun while a run waits for
 * approval, and a run that times out while it waits; the run's events in order.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { AgentRun } from "../../src/runtime/loop/AgentRunWorkflow.js"
import { DemoRuntimeAgents } from "../../src/runtime/demo.js"
import { ensureBuiltinTools } from "../../src/runtime/tools/BuiltinTools.js"
import { testConfig } from "../support/config.js"
import { IdsSequence } from "../../layers/Ids.js"
import { call, expectProblem, type Session, signIn } from "../support/http.js"
import { TestMcpServer } from "../support/mcpServer.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { awaitWorkflow } from "../support/workflows.js"
import { awaitState, connectMcpTools, send, toolCalls } from "./runLoopSupport.js"
import { awaitRun, insertConversation, messageRows, runRow } from "./support.js"

const agent = DemoRuntimeAgents.configured
const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } })

/** The agent's tool grants: the built-in tools and the MCP tools of the "Loop tools" connection. */
const grants = {
  "directory.search_agents": "GRANTED",
  "directory.get_agent": "GRANTED",
  "loop-tools.counter": "GRANTED",
  "loop-tools.wipe": "GRANTED",
  "loop-tools.note": "APPROVAL_REQUIRED"
}

const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* ensureBuiltinTools(agent, TestEpoch)
  yield* ensureBuiltinTools(agent, TestEpoch) // idempotent
  yield* sql`UPDATE agent_runtime_configs SET tool_grants = ${JSON.stringify(grants)}::jsonb WHERE agent_id = ${agent}`
}).pipe(Effect.provide(IdsSequence("000000aa")), Effect.orDie)

/** The run's answer message. */
const answerOf = (runId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ state: string; contentText: string | null }>`
      SELECT state, content_text AS "contentText" FROM messages WHERE run_id = ${runId} AND role = 'assistant'`
    return row!
  }).pipe(Effect.orDie)

const events = (runId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ seq: string; kind: string; data: any }>`
      SELECT seq::text AS seq, kind, data FROM run_events WHERE run_id = ${runId} ORDER BY run_events.seq`
  }).pipe(Effect.orDie)

/** The event kinds in order, runs of `message.delta` as one, with each state. */
const eventTrail = (rows: ReadonlyArray<{ kind: string; data: any }>) =>
  rows.map((e) =>
    e.kind === "run.state" ? `run:${e.data.state}` : e.kind === "tool_call" ? `call:${e.data.state}/${e.data.approvalState}`
    : e.kind === "message.completed" ? `message:${e.data.state}` : e.kind
  ).filter((k, i, all) => !(k === "message.delta" && all[i - 1] === "message.delta"))

const decide = (session: Session, runId: string, body: unknown) => call("POST", `/api/v1/runs/${runId}/approvals`, { session, body })
const cancel = (session: Session, runId: string, body: unknown) => call("POST", `/api/v1/runs/${runId}/cancel`, { session, body })

layer(server.layer, { excludeTestServices: true })("the run loop", (it) => {
  it.effect("a built-in tool call: the call runs once, its result goes back to the model, parts and events in order", () =>
    Effect.gen(function*() {
      yield* setup
      const owner = yield* signIn("owner")
      const conversation = yield* insertConversation(agent, "owner", "CHAT")
      const runId = yield* send(owner, conversation, `/tool directory__get_agent {"entityId":"${agent}"}`)
      const run = yield* awaitRun(runId)
      expect(run).toMatchObject({ state: "SUCCEEDED", failureCode: null })
      const [tc, ...more] = yield* toolCalls(runId)
      expect(more).toEqual([])
      expect(tc).toMatchObject({
        stableName: "directory.get_agent", state: "SUCCEEDED", approvalState: "NOT_REQUIRED", isError: false, errorCode: null,
        arguments: { entityId: agent }
      })
      expect(tc!.result.entityId).toBe(agent)
      const answer = (yield* messageRows(conversation))[1]!
      expect(answer.state).toBe("COMPLETE")
      expect(answer.contentText).toMatch(/^demo-echo-1 got directory__get_agent: \{/)
      expect(answer.contentParts).toEqual([
        { type: "tool_call", toolCallId: tc!.id, stableName: "directory.get_agent", arguments: { entityId: agent } },
        { type: "tool_result", toolCallId: tc!.id, result: tc!.result, isError: false },
        { type: "text", text: answer.contentText }
      ])
      const log = yield* events(runId)
      expect(log.map((e) => Number(e.seq))).toEqual(log.map((_, i) => i + 1))
      expect(eventTrail(log)).toEqual([
        "run:QUEUED", "run:RUNNING", "usage", "call:PENDING/NOT_REQUIRED", "call:RUNNING/NOT_REQUIRED",
        "call:SUCCEEDED/NOT_REQUIRED", "message.delta", "usage", "run:SUCCEEDED", "message:COMPLETE"
      ])
      expect(log.filter((e) => e.kind === "message.delta").map((e) => e.data.delta).join("")).toBe(answer.contentText)
      const sql = yield* SqlClient.SqlClient
      const steps = yield* sql<{ ordinal: number; state: string; finishReason: string }>`
        SELECT ordinal, state, finish_reason AS "finishReason" FROM run_steps WHERE run_id = ${runId} ORDER BY ordinal`
      expect(steps).toEqual([
        { ordinal: 1, state: "SUCCEEDED", finishReason: "tool-calls" },
        { ordinal: 2, state: "SUCCEEDED", finishReason: "stop" }
      ])
      const [usage] = yield* sql<{ provider: string; model: string; inputTokens: string; deadline: boolean }>`
        SELECT provider, model, input_tokens::text AS "inputTokens", deadline_at = started_at + interval '600 seconds' AS deadline
        FROM runs WHERE id = ${runId}`
      expect(usage).toMatchObject({ provider: "deterministic", model: "demo-echo-1", deadline: true })
      expect(Number(usage!.inputTokens)).toBeGreaterThan(0)
    }))

  it.effect("search_agents; arguments that fail the inputSchema: the call FAILED INVALID_ARGUMENTS, never run", () =>
    Effect.gen(function*() {
      yield* setup
      const owner = yield* signIn("owner")
      const conversation = yield* insertConversation(agent, "owner", "CHAT")
      const search = yield* send(owner, conversation, `/tool directory__search_agents {"limit":2}`)
      expect((yield* awaitRun(search)).state).toBe("SUCCEEDED")
      const [found] = yield* toolCalls(search)
      expect(found).toMatchObject({ state: "SUCCEEDED", isError: false })
      expect(found!.result.agents.length).toBe(2)

      const invalid = yield* send(owner, conversation, `/tool directory__get_agent {"entityId":"not-a-uuid","extra":1}`)
      expect((yield* awaitRun(invalid)).state).toBe("SUCCEEDED")
      const [bad] = yield* toolCalls(invalid)
      expect(bad).toMatchObject({ state: "FAILED", errorCode: "INVALID_ARGUMENTS", isError: true, approvalState: "NOT_REQUIRED" })
      expect(bad!.result.error).toContain("/entityId: must match format \"uuid\"")
      expect(bad!.result.error).not.toContain("not-a-uuid")
      const answer = yield* answerOf(invalid)
      expect(answer.contentText).toContain("demo-echo-1 got directory__get_agent: {\"error\":\"Invalid arguments:")
      expect(eventTrail(yield* events(invalid))).toEqual([
        "run:QUEUED", "run:RUNNING", "usage", "call:PENDING/NOT_REQUIRED", "call:FAILED/NOT_REQUIRED",
        "message.delta", "usage", "run:SUCCEEDED", "message:COMPLETE"
      ])
    }))

  it.effect("a tool that is not granted is not offered: the model answers in text", () =>
    Effect.gen(function*() {
      yield* setup
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE agent_runtime_configs SET tool_grants = tool_grants - 'directory.get_agent' WHERE agent_id = ${agent}`
      const owner = yield* signIn("owner")
      const conversation = yield* insertConversation(agent, "owner", "CHAT")
      const runId = yield* send(owner, conversation, `/tool directory__get_agent {"entityId":"${agent}"}`)
      expect((yield* awaitRun(runId)).state).toBe("SUCCEEDED")
      expect(yield* toolCalls(runId)).toEqual([])
      expect((yield* messageRows(conversation))[1]!.contentText).toMatch(/^demo-echo-1 received: /)
    }))

  it.scoped("MCP tools: called once through the connection; approve, deny, cancel while waiting, timeout", () =>
    Effect.gen(function*() {
      yield* setup
      const mcp = yield* TestMcpServer()
      let counter = 0
      mcp.offer.tools.push(
        {
          name: "counter", description: "Adds one", annotations: { destructiveHint: false },
          inputSchema: { type: "object", properties: { by: { type: "integer" } }, required: ["by"] }
        },
        { name: "wipe", description: "Deletes everything", inputSchema: { type: "object", properties: {} } },
        { name: "note", description: "Writes a note", annotations: { readOnlyHint: true }, inputSchema: { type: "object" } }
      )
      mcp.handlers["counter"] = async (args) => {
        counter += Number(args["by"])
        return { content: [{ type: "text", text: `counter=${counter}` }] }
      }
      mcp.handlers["wipe"] = async () => ({ content: [{ type: "text", text: "wiped" }] })
      mcp.handlers["note"] = async () => ({ content: [{ type: "text", text: "noted" }], isError: true })
      const owner = yield* signIn("owner")
      // the five tools of the initial offer and ours
      yield* connectMcpTools(owner, agent, { name: "Loop tools", serverUrl: `${mcp.origin}/mcp`, tools: 8 })
      const conversation = yield* insertConversation(agent, "owner", "CHAT")

      // a granted MEDIUM-risk tool: no approval, called once with its arguments
      const counted = yield* send(owner, conversation, `/tool loop-tools__counter {"by":2}`)
      expect((yield* awaitRun(counted)).state).toBe("SUCCEEDED")
      expect(mcp.calls).toEqual([{ name: "counter", arguments: { by: 2 } }])
      const [countCall] = yield* toolCalls(counted)
      expect(countCall).toMatchObject({ stableName: "loop-tools.counter", state: "SUCCEEDED", result: { content: [{ type: "text", text: "counter=2" }] } })
      expect((yield* answerOf(counted)).contentText).toBe(
        "demo-echo-1 got loop-tools__counter: {\"content\":[{\"text\":\"counter=2\",\"type\":\"text\"}]}"
      )

      // HIGH risk (destructive by default): the run waits for a person
      const wiping = yield* send(owner, conversation, `/tool loop-tools__wipe {}`)
      const waiting = yield* awaitState(wiping, "APPROVAL_REQUIRED")
      const [wipe] = yield* toolCalls(wiping)
      expect(wipe).toMatchObject({ state: "APPROVAL_REQUIRED", approvalState: "PENDING" })
      expect(mcp.calls).toHaveLength(1)
      expectProblem(yield* decide(owner, wiping, { toolCallId: randomUUID(), decision: "APPROVE", expectedVersion: waiting.version }), 404, "tool-call-not-found")
      expectProblem(yield* decide(owner, wiping, { toolCallId: wipe!.id, decision: "APPROVE", expectedVersion: waiting.version - 1 }), 409, "version-conflict")
      expectProblem(yield* decide(owner, wiping, { toolCallId: wipe!.id, decision: "MAYBE", expectedVersion: waiting.version }), 400, "invalid-request")
      expectProblem(yield* decide(yield* signIn("outsider"), wiping, { toolCallId: wipe!.id, decision: "APPROVE", expectedVersion: waiting.version }), 404, "run-not-found")
      const approved = yield* decide(owner, wiping, { toolCallId: wipe!.id, decision: "APPROVE", expectedVersion: waiting.version })
      expect(approved.status, approved.text).toBe(200)
      expect(approved.body.data.run).toMatchObject({ id: wiping, state: "RUNNING", version: waiting.version + 1 })
      expect(approved.body.data.toolCall).toMatchObject({ id: wipe!.id, approvalState: "APPROVED", stableName: "loop-tools.wipe" })
      expect(approved.body.data.toolCall.decidedAt).not.toBeNull()
      expect((yield* awaitRun(wiping)).state).toBe("SUCCEEDED")
      expect(mcp.calls.map((c) => c.name)).toEqual(["counter", "wipe"])
      expect((yield* toolCalls(wiping))[0]).toMatchObject({ state: "SUCCEEDED", approvalState: "APPROVED" })
      expectProblem(yield* decide(owner, wiping, { toolCallId: wipe!.id, decision: "DENY", expectedVersion: (yield* runRow(wiping)).version }), 409, "approval-not-pending")
      expect(eventTrail(yield* events(wiping))).toEqual([
        "run:QUEUED", "run:RUNNING", "usage", "call:PENDING/PENDING", "call:APPROVAL_REQUIRED/PENDING", "run:APPROVAL_REQUIRED",
        "call:APPROVAL_REQUIRED/APPROVED", "run:RUNNING", "call:RUNNING/APPROVED", "call:SUCCEEDED/APPROVED",
        "message.delta", "usage", "run:SUCCEEDED", "message:COMPLETE"
      ])

      // a grant that requires approval (the tool itself is LOW risk); denied: never called, the model is told
      const noting = yield* send(owner, conversation, `/tool loop-tools__note {"text":"hi"}`)
      const noteWait = yield* awaitState(noting, "APPROVAL_REQUIRED")
      const [note] = yield* toolCalls(noting)
      const denied = yield* decide(owner, noting, { toolCallId: note!.id, decision: "DENY", expectedVersion: noteWait.version })
      expect(denied.status, denied.text).toBe(200)
      expect(denied.body.data.toolCall).toMatchObject({ state: "DENIED", approvalState: "DENIED", errorCode: "DENIED", isError: true })
      expect((yield* awaitRun(noting)).state).toBe("SUCCEEDED")
      expect(mcp.calls.map((c) => c.name)).toEqual(["counter", "wipe"])
      expect((yield* answerOf(noting)).contentText).toContain("got loop-tools__note: {\"error\":\"A person denied")

      // cancelled while it waits: run CANCELLED at once, the wait ends, the workflow ends, the tool is never called
      const cancelled = yield* send(owner, conversation, `/tool loop-tools__wipe {}`)
      const cancelWait = yield* awaitState(cancelled, "APPROVAL_REQUIRED")
      expectProblem(yield* cancel(owner, cancelled, { expectedVersion: cancelWait.version + 5 }), 409, "version-conflict")
      const cancelReply = yield* cancel(owner, cancelled, { expectedVersion: cancelWait.version })
      expect(cancelReply.status, cancelReply.text).toBe(200)
      expect(cancelReply.body.data).toMatchObject({ id: cancelled, state: "CANCELLED", version: cancelWait.version + 1 })
      yield* awaitWorkflow(AgentRun, { runId: cancelled }, "Complete")
      expect((yield* toolCalls(cancelled))[0]).toMatchObject({ state: "CANCELLED", approvalState: "PENDING" })
      expect((yield* answerOf(cancelled)).state).toBe("CANCELLED")
      expect(mcp.calls.map((c) => c.name)).toEqual(["counter", "wipe"])
      expectProblem(yield* cancel(owner, cancelled, { expectedVersion: cancelWait.version + 1 }), 409, "invalid-state")
      expect(eventTrail(yield* events(cancelled)).slice(-3)).toEqual(["run:CANCELLED", "call:CANCELLED/PENDING", "message:CANCELLED"])

      // past its deadline while it waits: TIMED_OUT (the durable clock of the deadline ends the wait)
      const late = yield* send(owner, conversation, `/tool loop-tools__wipe {}`)
      yield* awaitState(late, "APPROVAL_REQUIRED")
      yield* awaitWorkflow(AgentRun, { runId: late }, "Suspended")
      server.clock.advance(601_000)
      expect((yield* awaitRun(late)).state).toBe("TIMED_OUT")
      expect((yield* toolCalls(late))[0]).toMatchObject({ state: "CANCELLED" })
      expect((yield* answerOf(late)).state).toBe("FAILED")
      expect(mcp.calls.map((c) => c.name)).toEqual(["counter", "wipe"])
    }))
})
