/** Inserts the runtime and MCP demo data (`./runtime.ts`); called by `seed.ts` inside its transaction. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import {
  DemoConversations,
  DemoMcpConnections,
  DemoPendingToolCall,
  demoMcpCatalog,
  demoMessageId,
  DemoRunDetail,
  DemoRuns,
  DemoRuntimeConfigs,
  DemoRuntimeTools
} from "./data.js"
import { DemoAccounts } from "../accounts/seed.js"
import { demoTime } from "../common.js"
import { seedDemoRunEvents } from "./runEvents.js"

const json = (v: unknown) => (v === null ? null : JSON.stringify(v))

/** Fails with `SqlError`. */
export const seedRuntimeDemoData = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO agent_runtime_configs ${
    sql.insert(DemoRuntimeConfigs.map((c) => ({
      agent_id: c.agent,
      provider: c.provider,
      model: c.model,
      instructions: c.instructions,
      created_at: demoTime(45),
      updated_at: demoTime(45)
    })))
  }`
  yield* sql`INSERT INTO runtime_tools ${
    sql.insert(DemoRuntimeTools.map((t) => ({
      id: t.id,
      agent_id: t.agent,
      stable_name: t.stableName,
      version: t.version,
      description: t.description,
      input_schema: json(t.inputSchema),
      output_schema: json(t.outputSchema),
      risk_class: t.riskClass,
      executor_kind: t.executorKind,
      execution_class: t.executionClass,
      source_kind: t.sourceKind,
      source_reference: t.sourceReference,
      implementation_version: t.implementationVersion,
      available: t.available,
      unavailable_at: t.unavailableAt,
      state: t.state,
      grant_state: t.grantState,
      definition_digest: t.definitionDigest,
      remote_definition: json(t.remoteDefinition),
      created_at: demoTime(t.day)
    })))
  }`
  const connections = Object.values(DemoMcpConnections)
  yield* sql`INSERT INTO mcp_connections ${
    sql.insert(connections.map((c, i) => ({
      id: c.id,
      agent_id: c.agent,
      name: c.name,
      server_url: c.serverUrl,
      state: c.state,
      oauth_issuer: c.oauth?.issuer ?? null,
      oauth_authorization_endpoint: c.oauth?.authorizationEndpoint ?? null,
      oauth_client_id: c.oauth?.clientId ?? null,
      oauth_redirect_uri: c.oauth?.redirectUri ?? null,
      created_at: demoTime(46, i),
      updated_at: demoTime(46, i)
    })))
  }`
  yield* sql`INSERT INTO mcp_catalogs ${
    sql.insert(connections.filter((c) => c.observed).map((c) => {
      const catalog = demoMcpCatalog(c)
      return {
        connection_id: c.id,
        protocol_version: catalog.protocolVersion,
        server_identity: json(catalog.serverIdentity),
        capabilities: json(catalog.capabilities),
        tools: json(catalog.tools),
        resources: json(catalog.resources),
        resource_templates: json(catalog.resourceTemplates),
        prompts: json(catalog.prompts),
        cache_metadata: json(catalog.cacheMetadata),
        observed_at: catalog.observedAt,
        expires_at: catalog.expiresAt
      }
    }))
  }`
  yield* sql`INSERT INTO conversations ${
    sql.insert(Object.values(DemoConversations).map((c) => ({
      id: c.id,
      agent_id: c.agent,
      account_id: DemoAccounts[c.account].id,
      kind: c.kind,
      title: c.title,
      created_at: demoTime(c.day),
      updated_at: demoTime(c.day, 30)
    })))
  }`
  const finished = (state: string) => ["SUCCEEDED", "FAILED", "CANCELLED", "TIMED_OUT"].includes(state)
  yield* sql`INSERT INTO runs ${
    sql.insert(DemoRuns.map((r, i) => {
      const day = r.conversation === null ? 83 : DemoConversations[r.conversation].day
      return {
        id: r.id,
        conversation_id: r.conversation === null ? null : DemoConversations[r.conversation].id,
        agent_id: DemoConversations.playground.agent,
        trigger_type: r.trigger,
        state: r.state,
        version: r.version,
        failure_code: r.failureCode,
        is_playground: r.trigger === "PLAYGROUND",
        retention_expires_at: demoTime(day + 365),
        created_at: demoTime(day, i),
        started_at: r.state === "QUEUED" ? null : demoTime(day, i + 1),
        completed_at: finished(r.state) ? demoTime(day, i + 2) : null,
        updated_at: demoTime(day, i + 2)
      }
    }))
  }`
  // two messages per conversational run, ordinals 1, 2, 3… within each conversation
  const ordinals = new Map<string, number>()
  let n = 0
  const messages = DemoRuns.flatMap((r, i) => {
    if (r.conversation === null || r.ask === null) return []
    const conversation = DemoConversations[r.conversation]
    const next = (ordinals.get(conversation.id) ?? 0) + 1
    ordinals.set(conversation.id, next + 1)
    const userId = demoMessageId(++n)
    const assistantId = demoMessageId(++n)
    const at = demoTime(conversation.day, i)
    const answerDone = r.answerState === "COMPLETE" || r.answerState === "FAILED"
    return [
      {
        id: userId, conversation_id: conversation.id, ordinal: next, role: "user", state: "COMPLETE",
        content_text: r.ask, content_parts: json([{ type: "text", text: r.ask }]), parent_message_id: null,
        run_id: r.id, created_at: at, completed_at: at
      },
      {
        id: assistantId, conversation_id: conversation.id, ordinal: next + 1, role: "assistant", state: r.answerState!,
        content_text: r.answer, content_parts: json(r.answer === null ? [] : [{ type: "text", text: r.answer }]),
        parent_message_id: userId, run_id: r.id, created_at: at, completed_at: answerDone ? demoTime(conversation.day, i + 2) : null
      }
    ]
  })
  for (const m of messages) yield* sql`INSERT INTO messages ${sql.insert(m)}`
  const call = DemoPendingToolCall
  yield* sql`INSERT INTO run_tool_calls (id, run_id, step_ordinal, provider_call_id, tool_id, stable_name, arguments, state,
               approval_state, created_at)
             VALUES (${call.id}, ${call.run}, 1, 'call-1', NULL, ${call.stableName}, ${json(call.arguments)}::jsonb, 'PENDING',
               'PENDING', ${demoTime(DemoConversations.active.day, 5)})`
  yield* seedRunDetailDemoData
  yield* seedDemoRunEvents
})

/** The steps, tool call and usage of the demo chat run (`DemoRunDetail`). Fails with `SqlError`. */
export const seedRunDetailDemoData = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const d = DemoRunDetail
  const day = DemoConversations.chat.day
  yield* sql`UPDATE runs SET provider = ${d.provider}, model = ${d.model}, input_tokens = ${d.inputTokens},
               output_tokens = ${d.outputTokens}, cost_micro_usd = ${d.costMicroUsd} WHERE id = ${d.run}`
  yield* sql`INSERT INTO run_steps ${
    sql.insert(d.steps.map((s) => ({
      run_id: d.run,
      ordinal: s.ordinal,
      state: s.state,
      finish_reason: s.finishReason,
      input_tokens: s.inputTokens,
      output_tokens: s.outputTokens,
      started_at: demoTime(day, s.started),
      completed_at: demoTime(day, s.completed)
    })))
  }`
  yield* sql`INSERT INTO run_tool_calls ${
    sql.insert(d.toolCalls.map((t) => ({
      id: t.id,
      run_id: d.run,
      step_ordinal: t.stepOrdinal,
      provider_call_id: t.providerCallId,
      tool_id: t.tool,
      stable_name: t.stableName,
      arguments: json(t.arguments),
      state: t.state,
      approval_state: t.approvalState,
      result: json(t.result),
      is_error: t.isError,
      created_at: demoTime(day, t.minute),
      started_at: demoTime(day, t.minute),
      completed_at: demoTime(day, t.minute)
    })))
  }`
})
