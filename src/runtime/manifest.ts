/**
 * The runtime area's entries of the demo manifest (`src/db/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../Area.js"
import { DemoConversations, DemoPendingToolCall, DemoRuns, DemoRuntimeAgents } from "./demo.js"

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
  // Run control (issue 21)
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
  }
} satisfies Record<string, ManifestOperation>
