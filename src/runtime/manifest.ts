/**
 * The runtime area's entries of the demo manifest (`src/db/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../Area.js"
import { DemoConversations, DemoRuns, DemoRuntimeAgents } from "./demo.js"

/** The runtime area's demo requests, by operationId. */
export const RuntimeManifest = {
  // Runtime and MCP (issue 11)
  Runtime_ListRuntimeTools: { as: "member", path: { entityPublicId: DemoRuntimeAgents.configured }, query: {}, body: null },
  Runtime_PreviewAgentSchedule: {
    as: "member",
    path: { entityPublicId: DemoRuntimeAgents.configured },
    query: {},
    body: { cronExpression: "30 9 * * 1-5", timezone: "Europe/Berlin", count: 5, from: "2026-03-26T00:00:00.000Z" }
  },
  // Conversations and runs (issue 11)
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
  // Runtime configuration (issue 21)
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
