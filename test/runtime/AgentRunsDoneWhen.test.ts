/**
 * Agent runs end to end, through the real HTTP stack with a local server speaking the
 * OpenAI Responses protocol (the wire `@effect/ai-openai` uses) and a real MCP server:
 * a person connects the agent's MCP server, configures its runtime with a model profile
 * and a grant, creates a conversation, sends a message, follows the run over Server-Sent
 * Events, sees the model call the connection's tool (a destructive one: the run waits
 * for approval), approves it, and reads the conversation and the run back. Schedules
 * end to end are test/runtime/SchedulesCron.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Exit, Redacted, Scope } from "effect"
import { AgentRuntimeLive } from "../../layers/models/AgentRuntimeLive.js"
import { DefaultOutboundOptions } from "../../layers/Outbound.js"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { call, signIn } from "../support/http.js"
import { initialOffer, TestMcpServer } from "../support/mcpServer.js"
import { startModelServer } from "../support/modelServers/ModelServer.js"
import { openAiAnswer } from "../support/modelServers/OpenAiResponses.js"
import { eventsOf, openSse } from "../support/sse.js"
import { makeTestServer } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

const Key = "sk-done-when-key-5c1e"
const agent = DemoRuntimeAgents.configured

// the model server must exist before the configuration that names it
const scope = Effect.runSync(Scope.make())
const model = await Effect.runPromise(Scope.extend(startModelServer, scope))
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const server = makeTestServer({
  modelProfiles: { local: { kind: "openai", baseUrl: `${model.origin}/v1`, apiKey: Redacted.make(Key), prices: {} } },
  outbound: { ...DefaultOutboundOptions, userAgent: "agent-directory/test", allowedHosts: ["127.0.0.1"] }
}, { runtime: AgentRuntimeLive })

layer(server.layer, { excludeTestServices: true })("agent runs end to end", (it) => {
  it.scoped("conversation → message → SSE → the model calls an MCP tool → approval → the conversation read back", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const sql = yield* SqlClient.SqlClient

      // the agent's MCP server, with a tool that changes things (no annotations: HIGH risk, approval required)
      const mcp = yield* TestMcpServer()
      mcp.offer.tools.push({
        name: "publish", description: "Publishes a report",
        inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] }
      })
      mcp.handlers["publish"] = async (args) => ({ content: [{ type: "text", text: `published ${String(args["title"])}` }] })
      const connected = yield* call("POST", `/api/v1/agents/${agent}/mcp/connections`, {
        session: owner, body: { name: "Done tools", serverUrl: `${mcp.origin}/mcp`, transport: "STREAMABLE_HTTP" }
      })
      expect(connected.status, connected.text).toBe(201)
      const stored = Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM runtime_tools
                                                 WHERE agent_id = ${agent} AND stable_name LIKE 'done-tools.%'`, ([row]) => row!.n)
      yield* waitFor("the connection's tools", until(stored, (n) => n >= initialOffer().tools.length + 1), 20_000, 25)

      // the runtime: the local model profile, the tool granted
      const current = yield* call("GET", `/api/v1/agents/${agent}/runtime`, { session: owner })
      const configured = yield* call("PUT", `/api/v1/agents/${agent}/runtime`, {
        session: owner,
        body: {
          provider: "local", model: "gpt-local", instructions: "You publish reports when asked.", temperature: 0.2,
          toolGrants: [{ stableName: "done-tools.publish", grant: "GRANTED" }], expectedVersion: current.body.data.version
        }
      })
      expect(configured.status, configured.text).toBe(200)

      // a conversation and a message; the model first calls the tool, then answers
      const created = yield* call("POST", `/api/v1/agents/${agent}/conversations`, { session: owner, body: { title: "Reports" } })
      expect(created.status, created.text).toBe(201)
      const conversation = created.body.data.id as string
      model.script(
        openAiAnswer("gpt-local", {
          toolCalls: [{ id: "call_publish_1", name: "done-tools__publish", arguments: { title: "EU market" } }],
          inputTokens: 30, outputTokens: 6
        }),
        openAiAnswer("gpt-local", { text: ["Published ", "the EU market report."], inputTokens: 52, outputTokens: 5 })
      )
      const sent = yield* call("POST", `/api/v1/conversations/${conversation}/messages`, {
        session: owner, body: { content: "Publish the EU market report." }
      })
      expect(sent.status, sent.text).toBe(202)
      const runId = sent.body.data.run.id as string

      // follow it live: the run stops for approval of the tool call
      const stream = yield* openSse(`/api/v1/runs/${runId}/events`, { session: owner })
      expect(stream.status).toBe(200)
      yield* stream.until("the approval request", (items) =>
        eventsOf(items).some((e) => e.event === "run.state" && (e.data as any).state === "APPROVAL_REQUIRED"))
      const waiting = yield* call("GET", `/api/v1/runs/${runId}`, { session: owner })
      expect(waiting.body.data).toMatchObject({ state: "APPROVAL_REQUIRED", provider: "local", model: "gpt-local" })
      const [pending] = waiting.body.data.toolCalls
      expect(pending).toMatchObject({
        stableName: "done-tools.publish", arguments: { title: "EU market" }, state: "APPROVAL_REQUIRED", approvalState: "PENDING"
      })
      expect(mcp.calls).toEqual([])

      const approved = yield* call("POST", `/api/v1/runs/${runId}/approvals`, {
        session: owner, body: { toolCallId: pending.id, decision: "APPROVE", expectedVersion: waiting.body.data.version }
      })
      expect(approved.status, approved.text).toBe(200)

      // the stream ends with the run: the tool ran once, its result went back to the model, the answer streamed
      const items = yield* stream.end(30_000)
      const events = eventsOf(items)
      expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1))
      expect(events.at(-2)).toMatchObject({ event: "run.state", data: { state: "SUCCEEDED" } })
      expect(events.filter((e) => e.event === "message.delta").map((e) => (e.data as any).delta).join(""))
        .toBe("Published the EU market report.")
      expect(events.filter((e) => e.event === "tool_call").map((e) => (e.data as any).state))
        .toEqual(["PENDING", "APPROVAL_REQUIRED", "APPROVAL_REQUIRED", "RUNNING", "SUCCEEDED"])
      expect(mcp.calls).toEqual([{ name: "publish", arguments: { title: "EU market" } }])
      expect(model.requests).toHaveLength(2)
      expect(model.requests[0]!.headers["authorization"]).toBe(`Bearer ${Key}`)
      expect(model.requests[0]!.body.tools.map((t: any) => t.name)).toContain("done-tools__publish")
      expect(JSON.stringify(model.requests[1]!.body.input)).toContain("published EU market")

      // read back: the conversation's messages and the run
      const messages = yield* call("GET", `/api/v1/conversations/${conversation}/messages`, { session: owner })
      expect(messages.status, messages.text).toBe(200)
      expect(messages.body.data.map((m: any) => [m.role, m.state, m.contentText])).toEqual([
        ["user", "COMPLETE", "Publish the EU market report."],
        ["assistant", "COMPLETE", "Published the EU market report."]
      ])
      expect(messages.body.data[1].contentParts.map((p: any) => p.type)).toEqual(["tool_call", "tool_result", "text"])
      const run = yield* call("GET", `/api/v1/runs/${runId}`, { session: owner })
      expect(run.body.data).toMatchObject({
        state: "SUCCEEDED", triggerType: "MESSAGE", usage: { inputTokens: "82", outputTokens: "11" },
        toolCalls: [{ state: "SUCCEEDED", approvalState: "APPROVED" }]
      })
      expect(run.body.data.steps.map((s: any) => s.finishReason)).toEqual(["tool-calls", "stop"])
      for (const reply of [configured, sent, waiting, approved, messages, run]) expect(reply.text).not.toContain(Key)
    }))
})
