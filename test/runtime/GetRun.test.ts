/**
 * Runtime_GetRun through the HTTP stack: the full run (steps, tool
 * calls with their approval, usage, timings), its ETag, and who sees it. The steps and
 * tool calls of the fixture run are stored rows (`run_steps`, `run_tool_calls` of
 * migration 0021), inserted as the run loop stores them.
 */
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoConversations, DemoRunDetail, DemoRuns, DemoRuntimeAgents, DemoRuntimeTools } from "../../demo/runtime/data.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { awaitRun } from "./support.js"

const server = makeTestServer()
const runPath = (runId: string) => `/api/v1/runs/${runId}`

type Account = keyof typeof DemoAccounts

const as = (method: "GET" | "POST", path: string, account: Account, options: CallOptions = {}) =>
  Effect.gen(function*() {
    return yield* call(method, path, { session: yield* signIn(account), ...options })
  })

const runKeys = [
  "completedAt", "conversationId", "createdAt", "deadlineAt", "cancelRequestedAt", "entityPublicId", "failureCode", "id",
  "model", "provider", "scheduleId", "startedAt", "state", "steps", "toolCalls", "triggerType", "usage", "version"
].sort()

/** A conversation of `account` with the configured agent, created through the API. */
const conversationOf = (account: Account) =>
  Effect.gen(function*() {
    const reply = yield* as("POST", `/api/v1/agents/${DemoRuntimeAgents.configured}/conversations`, account, { body: { title: "runs" } })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data.id as string
  })

const t = (seconds: number) => new Date(Date.UTC(2026, 4, 2, 10, 0, seconds))
const iso = (seconds: number) => t(seconds).toISOString()

/**
 * A run waiting for an approval, after two model calls: the first asked for two tools
 * (one ran, one a person denied), the second for two more (one failed, one waits for
 * approval). Rows are inserted out of order: the answer orders them.
 */
const insertRunWithSteps = (conversationId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const runId = randomUUID()
    const ids = { ran: randomUUID(), denied: randomUUID(), failed: randomUUID(), waiting: randomUUID() }
    yield* sql`INSERT INTO runs (id, conversation_id, agent_id, trigger_type, state, version, is_playground,
                 retention_expires_at, created_at, started_at, updated_at, provider, model, input_tokens, output_tokens,
                 cost_micro_usd, deadline_at)
               VALUES (${runId}, ${conversationId}, ${DemoRuntimeAgents.configured}, 'MESSAGE', 'APPROVAL_REQUIRED', 7,
                 false, ${t(86_400 * 30)}, ${t(0)}, ${t(1)}, ${t(9)}, 'openai', 'gpt-4o-mini', 1200, 345, 987, ${t(600)})`
    yield* sql`INSERT INTO run_steps (run_id, ordinal, state, finish_reason, input_tokens, output_tokens, started_at, completed_at)
               VALUES (${runId}, 2, 'SUCCEEDED', 'tool-calls', 700, 200, ${t(5)}, ${t(6)}),
                      (${runId}, 1, 'SUCCEEDED', 'tool-calls', 500, 145, ${t(1)}, ${t(2)})`
    const call = (r: {
      id: string; step: number; providerCallId: string; tool: string | null; name: string; args: unknown; state: string
      approval: string; decidedAt: Date | null; result: unknown; isError: boolean | null; errorCode: string | null
      created: number; started: number | null; completed: number | null
    }) =>
      sql`INSERT INTO run_tool_calls (id, run_id, step_ordinal, provider_call_id, tool_id, stable_name, arguments, state,
            approval_state, decided_by, decided_at, result, is_error, error_code, created_at, started_at, completed_at)
          VALUES (${r.id}, ${runId}, ${r.step}, ${r.providerCallId}, ${r.tool}, ${r.name}, ${JSON.stringify(r.args)}::jsonb,
            ${r.state}, ${r.approval}, ${r.decidedAt === null ? null : DemoAccounts.owner.id}, ${r.decidedAt},
            ${r.result === undefined ? null : JSON.stringify(r.result)}::jsonb, ${r.isError}, ${r.errorCode}, ${t(r.created)},
            ${r.started === null ? null : t(r.started)}, ${r.completed === null ? null : t(r.completed)})`
    yield* call({
      id: ids.waiting, step: 2, providerCallId: "call_4", tool: DemoRuntimeTools[1].id, name: "email.send",
      args: { to: "cfo@example.com", body: "Numbers attached" }, state: "APPROVAL_REQUIRED", approval: "PENDING",
      decidedAt: null, result: undefined, isError: null, errorCode: null, created: 6, started: null, completed: null
    })
    yield* call({
      id: ids.ran, step: 1, providerCallId: "call_1", tool: DemoRuntimeTools[0].id, name: "docs.search",
      args: { query: "pricing" }, state: "SUCCEEDED", approval: "NOT_REQUIRED", decidedAt: null,
      result: { content: [{ type: "text", text: "3 results" }] }, isError: false, errorCode: null, created: 2, started: 2, completed: 3
    })
    yield* call({
      id: ids.failed, step: 2, providerCallId: "call_3", tool: DemoRuntimeTools[2].id, name: "web.fetch",
      args: { url: "https://example.com/slow" }, state: "FAILED", approval: "NOT_REQUIRED", decidedAt: null,
      result: { content: [{ type: "text", text: "timed out" }] }, isError: true, errorCode: "TOOL_TIMEOUT", created: 6, started: 6, completed: 8
    })
    yield* call({
      id: ids.denied, step: 1, providerCallId: "call_2", tool: null, name: "shell.exec",
      args: { command: "ls" }, state: "DENIED", approval: "DENIED", decidedAt: t(4), result: undefined, isError: null,
      errorCode: null, created: 2, started: null, completed: null
    })
    return { runId, ids }
  }).pipe(Effect.orDie)

layer(server.layer)("Runtime_GetRun", (it) => {
  it.effect("a run sent with Runtime_SendMessage, as the deterministic runtime finished it", () =>
    Effect.gen(function*() {
      const conversation = yield* conversationOf("member")
      const sent = yield* as("POST", `/api/v1/conversations/${conversation}/messages`, "member", { body: { content: "Hello" } })
      expect(sent.status, sent.text).toBe(202)
      const runId = sent.body.data.run.id
      const stored = yield* awaitRun(runId)
      const reply = yield* as("GET", runPath(runId), "member")
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("private, no-cache")
      expectMeta(reply)
      const run = reply.body.data
      expect(Object.keys(run).sort()).toEqual(runKeys)
      expect(run).toMatchObject({
        id: runId,
        conversationId: conversation,
        entityPublicId: DemoRuntimeAgents.configured,
        triggerType: "MESSAGE",
        scheduleId: null,
        state: "SUCCEEDED",
        version: stored.version,
        failureCode: null,
        createdAt: "2026-06-01T00:00:00.000Z",
        cancelRequestedAt: null
      })
      // the Run of §2.20 as SendMessage answered it, moved on to its end
      expect({ ...sent.body.data.run, state: run.state, version: run.version }).toEqual(
        Object.fromEntries(Object.keys(sent.body.data.run).map((k) => [k, run[k]]))
      )
      expect(run.startedAt).toMatch(/Z$/)
      expect(run.completedAt).toMatch(/Z$/)
      expect(run.usage.inputTokens).toMatch(/^[0-9]+$/)
      expect(run.usage.outputTokens).toMatch(/^[0-9]+$/)
      expect(Array.isArray(run.steps)).toBe(true)
      expect(Array.isArray(run.toolCalls)).toBe(true)
    }))

  it.effect("a run with steps and tool calls: every part, in order, with approvals, usage and timings", () =>
    Effect.gen(function*() {
      const conversation = yield* conversationOf("member")
      const { ids, runId } = yield* insertRunWithSteps(conversation)
      const reply = yield* as("GET", runPath(runId), "member")
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual({
        id: runId,
        conversationId: conversation,
        entityPublicId: DemoRuntimeAgents.configured,
        triggerType: "MESSAGE",
        scheduleId: null,
        state: "APPROVAL_REQUIRED",
        version: 7,
        failureCode: null,
        provider: "openai",
        model: "gpt-4o-mini",
        steps: [
          { ordinal: 1, state: "SUCCEEDED", finishReason: "tool-calls", inputTokens: "500", outputTokens: "145", startedAt: iso(1), completedAt: iso(2) },
          { ordinal: 2, state: "SUCCEEDED", finishReason: "tool-calls", inputTokens: "700", outputTokens: "200", startedAt: iso(5), completedAt: iso(6) }
        ],
        toolCalls: [
          // step 1, created together: by id
          ...[
            {
              id: ids.ran, stepOrdinal: 1, stableName: "docs.search", toolId: DemoRuntimeTools[0].id, arguments: { query: "pricing" },
              state: "SUCCEEDED", approvalState: "NOT_REQUIRED", decidedAt: null,
              result: { content: [{ type: "text", text: "3 results" }] }, isError: false, errorCode: null,
              createdAt: iso(2), startedAt: iso(2), completedAt: iso(3)
            },
            {
              id: ids.denied, stepOrdinal: 1, stableName: "shell.exec", toolId: null, arguments: { command: "ls" },
              state: "DENIED", approvalState: "DENIED", decidedAt: iso(4), result: null, isError: null, errorCode: null,
              createdAt: iso(2), startedAt: null, completedAt: null
            }
          ].sort((a, b) => (a.id < b.id ? -1 : 1)),
          ...[
            {
              id: ids.failed, stepOrdinal: 2, stableName: "web.fetch", toolId: DemoRuntimeTools[2].id,
              arguments: { url: "https://example.com/slow" }, state: "FAILED", approvalState: "NOT_REQUIRED", decidedAt: null,
              result: { content: [{ type: "text", text: "timed out" }] }, isError: true, errorCode: "TOOL_TIMEOUT",
              createdAt: iso(6), startedAt: iso(6), completedAt: iso(8)
            },
            {
              id: ids.waiting, stepOrdinal: 2, stableName: "email.send", toolId: DemoRuntimeTools[1].id,
              arguments: { to: "cfo@example.com", body: "Numbers attached" }, state: "APPROVAL_REQUIRED", approvalState: "PENDING",
              decidedAt: null, result: null, isError: null, errorCode: null, createdAt: iso(6), startedAt: null, completedAt: null
            }
          ].sort((a, b) => (a.id < b.id ? -1 : 1))
        ],
        usage: { inputTokens: "1200", outputTokens: "345", costMicroUsd: "987" },
        createdAt: iso(0),
        startedAt: iso(1),
        completedAt: null,
        deadlineAt: iso(600),
        cancelRequestedAt: null
      })
    }))

  it.effect("ETag: If-None-Match answers 304 while nothing changed, 200 with a new tag once it has", () =>
    Effect.gen(function*() {
      const conversation = yield* conversationOf("owner")
      const { ids, runId } = yield* insertRunWithSteps(conversation)
      const session = yield* signIn("owner")
      const first = yield* call("GET", runPath(runId), { session })
      expect(first.status, first.text).toBe(200)
      const etag = first.headers["etag"]!
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/)
      const again = yield* call("GET", runPath(runId), { session })
      expect(again.headers["etag"]).toBe(etag)

      const notModified = yield* call("GET", runPath(runId), { session, headers: { "if-none-match": etag } })
      expect(notModified.status).toBe(304)
      expect(notModified.text).toBe("")
      expect(notModified.headers["etag"]).toBe(etag)
      // weak comparison, and one tag of a list
      expect((yield* call("GET", runPath(runId), { session, headers: { "if-none-match": `"other", W/${etag}` } })).status).toBe(304)
      expect((yield* call("GET", runPath(runId), { session, headers: { "if-none-match": "\"other\"" } })).status).toBe(200)

      // the approval is given: the tool call changes, and so does the tag
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE run_tool_calls SET approval_state = 'APPROVED', state = 'RUNNING', decided_at = ${t(20)}
                 WHERE id = ${ids.waiting}`
      const changed = yield* call("GET", runPath(runId), { session, headers: { "if-none-match": etag } })
      expect(changed.status, changed.text).toBe(200)
      expect(changed.headers["etag"]).not.toBe(etag)
      expect(changed.body.data.toolCalls.find((c: any) => c.id === ids.waiting)).toMatchObject({
        state: "RUNNING", approvalState: "APPROVED", decidedAt: iso(20)
      })
      // a 304 is never the answer of someone who does not see the run
      expectProblem(
        yield* as("GET", runPath(runId), "member", { headers: { "if-none-match": changed.headers["etag"]! } }),
        404,
        "run-not-found"
      )
    }))

  it.effect("the demo chat run: its seeded steps, tool call and usage", () =>
    Effect.gen(function*() {
      const reply = yield* as("GET", runPath(DemoRunDetail.run), "member")
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toMatchObject({
        id: DemoRuns[2].id,
        conversationId: DemoConversations.chat.id,
        state: "SUCCEEDED",
        version: 4,
        provider: "deterministic",
        model: "demo-echo-1",
        usage: { inputTokens: "1840", outputTokens: "212", costMicroUsd: "4310" }
      })
      expect(reply.body.data.steps.map((s: any) => [s.ordinal, s.finishReason])).toEqual([[1, "tool-calls"], [2, "stop"]])
      expect(reply.body.data.toolCalls).toEqual([
        expect.objectContaining({ stableName: "docs.search", state: "SUCCEEDED", approvalState: "NOT_REQUIRED", stepOrdinal: 1 })
      ])
    }))

  it.effect("who sees a run: its conversation's author and OWNER/ADMIN; a scheduled run every member; else 404", () =>
    Effect.gen(function*() {
      // the member's chat run: the member and the owner see it, the VIEWER does not
      expect((yield* as("GET", runPath(DemoRuns[2].id), "owner")).status).toBe(200)
      expectProblem(yield* as("GET", runPath(DemoRuns[2].id), "admin"), 404, "run-not-found")
      // the owner's playground runs: not the member's (an EDITOR of the workspace)
      expect((yield* as("GET", runPath(DemoRuns[0].id), "owner")).status).toBe(200)
      const failed = yield* as("GET", runPath(DemoRuns[1].id), "owner")
      expect(failed.body.data).toMatchObject({ state: "FAILED", failureCode: "TOOL_TIMEOUT", triggerType: "PLAYGROUND" })
      expectProblem(yield* as("GET", runPath(DemoRuns[0].id), "member"), 404, "run-not-found")
      // the scheduled run, of no conversation: every member, the VIEWER included
      const scheduled = yield* as("GET", runPath(DemoRuns[4].id), "admin")
      expect(scheduled.status, scheduled.text).toBe(200)
      expect(scheduled.body.data).toMatchObject({
        conversationId: null, triggerType: "SCHEDULE", state: "QUEUED", startedAt: null, steps: [], toolCalls: [],
        usage: { inputTokens: "0", outputTokens: "0", costMicroUsd: null }
      })
      // outside the workspace, or no such run
      expectProblem(yield* as("GET", runPath(DemoRuns[4].id), "outsider"), 404, "run-not-found")
      expectProblem(yield* as("GET", runPath(DemoRuns[2].id), "outsider"), 404, "run-not-found")
      expectProblem(yield* as("GET", runPath(randomUUID()), "member"), 404, "run-not-found")
      expectProblem(yield* as("GET", runPath("not-a-run"), "member"), 400)
      expectProblem(yield* call("GET", runPath(DemoRuns[4].id)), 401)
    }))
})
