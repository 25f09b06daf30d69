/**
 * Demo data of the agent runtime and MCP (spec §2.15, §2.16, §2.20): which workspace operates which
 * agent, runtime configurations, tools, MCP connections and catalogs, and
 * conversations with messages and runs in several states (a playground among them).
 */
import { DemoAgents } from "../agents/seed.js"
import { demoId, demoTime } from "../common.js"

/** A fixed demo UUID (version 7 shape) of the runtime groups (0x0101…). */
const id = (group: number, n: number) => demoId(0x0100 + group, n)

/** Which workspace operates which demo agent (agents not listed are directory-only). */

/** Agents by their runtime situation. */
export const DemoRuntimeAgents = {
  /** Atlas Research: operated by Acme, runtime configured, tools, MCP connections, conversations. */
  configured: DemoAgents[0].id,
  /** Beacon Monitor: operated by Acme, no runtime configured (422). */
  unconfigured: DemoAgents[1].id,
  /** Cobalt Trader: operated by the outsider's workspace (not visible to Acme members). */
  foreign: DemoAgents[2].id,
  /** Delta Scribe: directory-only, operated by no workspace (not visible to anyone). */
  unoperated: DemoAgents[3].id
} as const

export const DemoRuntimeConfigs = [
  { agent: DemoRuntimeAgents.configured, provider: "deterministic", model: "demo-echo-1", instructions: "You are Atlas, a research assistant." },
  { agent: DemoRuntimeAgents.foreign, provider: "deterministic", model: "demo-echo-1", instructions: "You are Cobalt, a trading assistant." }
] as const

/** Runtime tools (spec §2.15), in the order Runtime_ListRuntimeTools returns them (stableName, version). */
export const DemoRuntimeTools = [
  {
    id: id(1, 1), agent: DemoRuntimeAgents.configured, stableName: "docs.search", version: 2,
    description: "Search the Atlas documentation MCP server.",
    inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    outputSchema: { type: "array", items: { type: "object" } },
    riskClass: "LOW", executorKind: "MCP", executionClass: "READ", sourceKind: "MCP_SERVER", sourceReference: id(2, 1),
    implementationVersion: "2025-06-18", available: true, unavailableAt: null, state: "ACTIVE", grantState: "GRANTED",
    definitionDigest: "sha256:6f1c0f1e2b1b8d3f4a5c6e7d8c9b0a1f2e3d4c5b6a7988776655443322110000",
    remoteDefinition: { name: "search", description: "Search the docs", inputSchema: { type: "object" } }, day: 50
  },
  {
    id: id(1, 2), agent: DemoRuntimeAgents.configured, stableName: "email.send", version: 1,
    description: "Send an email on behalf of the workspace.",
    inputSchema: { type: "object", properties: { to: { type: "string" }, body: { type: "string" } }, required: ["to", "body"] },
    outputSchema: null,
    riskClass: "HIGH", executorKind: "BUILTIN", executionClass: "SIDE_EFFECT", sourceKind: "BUILTIN", sourceReference: null,
    implementationVersion: "1.4.0", available: false, unavailableAt: demoTime(60), state: "DISABLED", grantState: null,
    definitionDigest: null, remoteDefinition: null, day: 51
  },
  {
    id: id(1, 3), agent: DemoRuntimeAgents.configured, stableName: "web.fetch", version: 1,
    description: "Fetch a web page as text.",
    inputSchema: { type: "object", properties: { url: { type: "string", format: "uri" } }, required: ["url"] },
    outputSchema: { type: "string" },
    riskClass: "MEDIUM", executorKind: "BUILTIN", executionClass: "READ", sourceKind: "BUILTIN", sourceReference: null,
    implementationVersion: "3.1.0", available: true, unavailableAt: null, state: "ACTIVE", grantState: "PENDING",
    definitionDigest: null, remoteDefinition: null, day: 52
  },
  {
    id: id(1, 4), agent: DemoRuntimeAgents.foreign, stableName: "market.quote", version: 1,
    description: "Quote a market price.", inputSchema: { type: "object" }, outputSchema: null,
    riskClass: "LOW", executorKind: "BUILTIN", executionClass: "READ", sourceKind: "BUILTIN", sourceReference: null,
    implementationVersion: "1.0.0", available: true, unavailableAt: null, state: "ACTIVE", grantState: null,
    definitionDigest: null, remoteDefinition: null, day: 53
  }
] as const

const oauth = (host: string) => ({
  issuer: `https://auth.${host}`,
  authorizationEndpoint: `https://auth.${host}/oauth2/authorize`,
  clientId: `atlas-${host.split(".")[0]}`,
  redirectUri: "https://app.agent-directory.dev/oauth/mcp/callback"
})

/** MCP connections of the demo agents, one per situation the MCP operations distinguish. */
export const DemoMcpConnections = {
  /** CONNECTED, OAuth configured, catalog observed. */
  docs: { id: id(2, 1), agent: DemoRuntimeAgents.configured, name: "Atlas docs", serverUrl: "https://mcp.docs.example/mcp", state: "CONNECTED", oauth: oauth("docs.example"), observed: true },
  /** AUTH_REQUIRED, OAuth configured, never observed (catalog 422). */
  crm: { id: id(2, 2), agent: DemoRuntimeAgents.configured, name: "CRM", serverUrl: "https://mcp.crm.example/mcp", state: "AUTH_REQUIRED", oauth: oauth("crm.example"), observed: false },
  /** CONNECTED without OAuth metadata (OAuth 422), catalog observed. */
  local: { id: id(2, 3), agent: DemoRuntimeAgents.configured, name: "Local files", serverUrl: "https://mcp.files.example/mcp", state: "CONNECTED", oauth: null, observed: true },
  /** DISABLED: OAuth refused (409). */
  disabled: { id: id(2, 4), agent: DemoRuntimeAgents.configured, name: "Old wiki", serverUrl: "https://mcp.wiki.example/mcp", state: "DISABLED", oauth: oauth("wiki.example"), observed: false },
  /** The outsider's agent's connection: not visible to Acme members. */
  foreign: { id: id(2, 5), agent: DemoRuntimeAgents.foreign, name: "Exchange", serverUrl: "https://mcp.exchange.example/mcp", state: "CONNECTED", oauth: oauth("exchange.example"), observed: true }
} as const

/** The observed catalog of a demo connection (spec §2.16 without digest). */
export const demoMcpCatalog = (c: { readonly name: string; readonly serverUrl: string }) => ({
  protocolVersion: "2025-06-18",
  serverIdentity: { name: c.name, version: "1.2.0", url: c.serverUrl },
  capabilities: { tools: { listChanged: true }, resources: { subscribe: false }, prompts: {} },
  tools: [{ name: "search", description: "Search the documents", inputSchema: { type: "object", properties: { query: { type: "string" } } } }],
  resources: [{ uri: "docs://index", name: "Index", mimeType: "text/markdown" }],
  resourceTemplates: [{ uriTemplate: "docs://page/{slug}", name: "Page" }],
  prompts: [{ name: "summarize", description: "Summarize a page", arguments: [{ name: "slug", required: true }] }],
  cacheMetadata: { etag: "W/\"demo-1\"", maxAgeSeconds: 3600 },
  observedAt: demoTime(70),
  expiresAt: demoTime(70, 60)
})

/** Conversations: a playground and a chat with Atlas (by the owner), and an active playground. */
export const DemoConversations = {
  playground: { id: id(3, 1), agent: DemoRuntimeAgents.configured, account: "owner", kind: "PLAYGROUND", title: "Trying the research flow", day: 80 },
  chat: { id: id(3, 2), agent: DemoRuntimeAgents.configured, account: "member", kind: "CHAT", title: "Market sizing", day: 81 },
  active: { id: id(3, 3), agent: DemoRuntimeAgents.configured, account: "owner", kind: "PLAYGROUND", title: null, day: 82 }
} as const

/**
 * Runs (spec §2.20) in several states; the messages of each run are a user message
 * and the assistant's answer in the state the run left it.
 */
export const DemoRuns = [
  { id: id(4, 1), conversation: "playground", trigger: "PLAYGROUND", state: "SUCCEEDED", failureCode: null, version: 4, ask: "What is MCP?", answer: "MCP is the Model Context Protocol.", answerState: "COMPLETE" },
  { id: id(4, 2), conversation: "playground", trigger: "PLAYGROUND", state: "FAILED", failureCode: "TOOL_TIMEOUT", version: 4, ask: "Fetch the pricing page.", answer: null, answerState: "FAILED" },
  { id: id(4, 3), conversation: "chat", trigger: "MESSAGE", state: "SUCCEEDED", failureCode: null, version: 4, ask: "Size the EU market.", answer: "About 2.1 billion EUR in 2026.", answerState: "COMPLETE" },
  { id: id(4, 4), conversation: "active", trigger: "PLAYGROUND", state: "RUNNING", failureCode: null, version: 3, ask: "Draft a summary.", answer: "Drafting", answerState: "STREAMING" },
  { id: id(4, 5), conversation: null, trigger: "SCHEDULE", state: "QUEUED", failureCode: null, version: 2, ask: null, answer: null, answerState: null }
] as const

/**
 * A tool call of the active demo run (`DemoRuns[3]`) that waits for a person's approval
 * (`approvalState` PENDING): the example of Runtime_DecideToolApproval.
 */
export const DemoPendingToolCall = {
  id: id(6, 2),
  run: id(4, 4),
  stableName: "research-tools.publish_report",
  arguments: { title: "EU market summary" }
} as const

/** The id of the n-th demo message (1-based). */
export const demoMessageId = (n: number) => id(5, n)

/**
 * What happened in the demo chat run (`DemoRuns[2]`, as Runtime_GetRun shows it): the model it
 * ran with, its usage and cost, two model calls (`run_steps`: the first asked for a tool,
 * the second answered) and the tool call in between (`run_tool_calls`, the docs search of
 * the agent's MCP connection, run without approval). Times are minutes of the run's day.
 */
export const DemoRunDetail = {
  run: DemoRuns[2].id,
  provider: "deterministic",
  model: "demo-echo-1",
  inputTokens: 1840,
  outputTokens: 212,
  costMicroUsd: 4310,
  steps: [
    { ordinal: 1, state: "SUCCEEDED", finishReason: "tool-calls", inputTokens: 820, outputTokens: 48, started: 3, completed: 3 },
    { ordinal: 2, state: "SUCCEEDED", finishReason: "stop", inputTokens: 1020, outputTokens: 164, started: 3, completed: 4 }
  ],
  toolCalls: [
    {
      id: id(6, 1), stepOrdinal: 1, providerCallId: "call_demo_1", tool: DemoRuntimeTools[0].id,
      stableName: DemoRuntimeTools[0].stableName, arguments: { query: "EU market size" }, state: "SUCCEEDED",
      approvalState: "NOT_REQUIRED", result: [{ title: "Market report 2026", snippet: "EU: about 2.1 billion EUR" }],
      isError: false, minute: 3
    }
  ]
} as const
