/**
 * The runtime area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoRunEvents } from "./runEvents.js"
import { DemoSchedules } from "./schedules.js"
import { DemoConversations, DemoPendingToolCall, DemoRunDetail, DemoRuns, DemoRuntimeAgents } from "./data.js"

/** The runtime area's demo requests, by operationId. */
export const RuntimeManifest = {
  // Runtime and MCP (spec §4.4)
  Runtime_ListRuntimeTools: { as: "member", path: { entityPublicId: DemoRuntimeAgents.configured }, query: {}, body: null },
  Runtime_PreviewAgentSchedule: {
    as: "member",
    path: { entityPublicId: DemoRuntimeAgents.configured },
    query: {},
    body: { cronExpression: "30 9 * * 1-5", timezone: "Europe/Berlin", count: 5, from: "2026-03-26T00:00:00.000Z" }
  },
  // Conversations and runs (spec §4.4)
  Runtime_SendMessage: {
    as: "member",
    path: { conversationId: DemoConversations.chat.id },
    query: {},
    body: { content: "And the US market?" },
    note: `Example (demo): POST /api/v1/conversations/${DemoConversations.chat.id}/messages as the member with ` +
      "`{\"content\":\"And the US market?\"}` → 202 `{\"data\":{\"userMessage\":{\"ordinal\":\"3\",\"role\":\"user\"," +
      "\"state\":\"COMPLETE\",…},\"assistantMessage\":{\"ordinal\":\"4\",\"role\":\"assistant\",\"state\":\"PENDING\"," +
      "\"contentText\":null,\"contentParts\":[],…},\"run\":{\"triggerType\":\"MESSAGE\",\"state\":\"QUEUED\"," +
      "\"version\":1,\"failureCode\":null,…}},\"meta\":{…}}`."
  },
  Runtime_ClearPlaygroundRunData: {
    as: "owner",
    path: { runId: DemoRuns[0].id },
    query: {},
    body: null,
    note: `Example (demo): DELETE /api/v1/runs/${DemoRuns[0].id}/playground-data as the owner → 200 ` +
      `\`{"data":{"runId":"${DemoRuns[0].id}","conversationId":"${DemoConversations.playground.id}",` +
      "\"state\":\"SUCCEEDED\",\"retentionExpiresAt\":\"2027-03-22T00:00:00.000Z\",\"dataClearedAt\":\"…\"},\"meta\":{…}}`."
  },
  // Conversation and run reads
  Runtime_CreateConversation: {
    as: "member",
    path: { entityPublicId: DemoRuntimeAgents.configured },
    query: {},
    body: { title: "Pricing research", kind: "CHAT" }
  },
  // the owner sees every conversation of the agent: two per page, so the example shows a nextCursor
  Runtime_ListConversations: { as: "owner", path: { entityPublicId: DemoRuntimeAgents.configured }, query: { limit: 2 }, body: null },
  Runtime_ListMessages: { as: "member", path: { conversationId: DemoConversations.chat.id }, query: {}, body: null },
  // the chat run with two model calls and a tool call in between
  Runtime_GetRun: { as: "member", path: { runId: DemoRunDetail.run }, query: {}, body: null },
  // Following a run live
  Runtime_StreamRunEvents: {
    as: "member",
    path: { runId: DemoRunEvents.runId },
    query: {},
    body: null,
    note: `Example (demo): GET /api/v1/runs/${DemoRunEvents.runId}/events as the member → 200 \`text/event-stream\`: ` +
      "`retry: 1000`, then `id: 1` `event: run.state` `data: {\"runId\":…,\"state\":\"RUNNING\",\"version\":3,\"failureCode\":null}`, " +
      "two `message.delta` events (`About 2.1 billion`, ` EUR in 2026.`), `message.completed`, `usage` and `id: 6` " +
      "`event: run.state` (SUCCEEDED), then the end (the run is finished). With `Last-Event-ID: 6` the answer is 204. " +
      "The example below is the first event, as `{kind, data}`."
  },
  // Schedules that fire
  Runtime_CreateAgentSchedule: {
    as: "owner",
    path: { entityPublicId: DemoRuntimeAgents.configured },
    query: {},
    body: {
      cronExpression: "30 9 * * 1-5",
      timezone: "Europe/Berlin",
      message: "Summarize yesterday's research notes.",
      title: "Morning summary"
    }
  },
  Runtime_ListAgentSchedules: { as: "member", path: { entityPublicId: DemoRuntimeAgents.configured }, query: {}, body: null },
  Runtime_DeleteAgentSchedule: {
    as: "owner",
    path: { entityPublicId: DemoRuntimeAgents.configured, scheduleId: DemoSchedules.cleanup.id },
    query: {},
    body: { expectedVersion: 1 }
  },
  // Run control
  Runtime_DecideToolApproval: {
    as: "owner",
    path: { runId: DemoPendingToolCall.run },
    query: {},
    body: { toolCallId: DemoPendingToolCall.id, decision: "APPROVE", expectedVersion: DemoRuns[3].version },
    note: `Example (demo): POST /api/v1/runs/${DemoPendingToolCall.run}/approvals as the owner with ` +
      `\`{"toolCallId":"${DemoPendingToolCall.id}","decision":"APPROVE","expectedVersion":3}\` → 200 ` +
      "`{\"data\":{\"run\":{\"state\":\"RUNNING\",\"version\":4,…},\"toolCall\":{\"stableName\":" +
      "\"research-tools.publish_report\",\"state\":\"PENDING\",\"approvalState\":\"APPROVED\",\"decidedAt\":\"…\",…}}," +
      "\"meta\":{…}}`."
  },
  Runtime_CancelRun: {
    as: "owner",
    path: { runId: DemoRuns[4].id },
    query: {},
    body: { expectedVersion: DemoRuns[4].version },
    note: `Example (demo): POST /api/v1/runs/${DemoRuns[4].id}/cancel as the owner with \`{"expectedVersion":2}\` → 200 ` +
      "`{\"data\":{\"triggerType\":\"SCHEDULE\",\"state\":\"CANCELLED\",\"version\":3,…},\"meta\":{…}}`."
  },
  // Runtime configuration
  Runtime_GetAgentRuntime: { as: "member", path: { entityPublicId: DemoRuntimeAgents.configured }, query: {}, body: null },
  Runtime_ConfigureAgentRuntime: {
    as: "member",
    path: { entityPublicId: DemoRuntimeAgents.configured },
    query: {},
    body: {
      provider: "deterministic",
      model: "demo-echo-1",
      instructions: "You are Atlas, a research assistant. Cite your sources.",
      temperature: 0.2,
      maxOutputTokens: 1024,
      toolGrants: [{ stableName: "docs.search", grant: "GRANTED" }],
      expectedVersion: 1
    },
    note: `Example (demo): PUT /api/v1/agents/${DemoRuntimeAgents.configured}/runtime as the member (EDITOR) with ` +
      "`{\"provider\":\"deterministic\",\"model\":\"demo-echo-1\",\"instructions\":\"You are Atlas, a research " +
      "assistant. Cite your sources.\",\"temperature\":0.2,\"maxOutputTokens\":1024,\"toolGrants\":[{\"stableName\":" +
      "\"docs.search\",\"grant\":\"GRANTED\"}],\"expectedVersion\":1}` → 200 with version 2. With a model profile " +
      "`local` configured (`MODEL_PROFILES='{\"local\":{\"kind\":\"openai\",\"baseUrl\":\"http://127.0.0.1:8000/v1\"}}'`, " +
      "`OUTBOUND_ALLOWED_HOSTS=127.0.0.1:8000`), `\"provider\":\"local\",\"model\":\"<served model>\"` makes the " +
      "agent's runs stream from that server."
  }
} satisfies Record<string, ManifestOperation>
