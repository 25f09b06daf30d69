/** Shared by the conversation and run tests: the agent run job on the test database, and fixtures. */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { type AgentRuntime, AgentRuntimeDeterministic } from "../../layers/AgentRuntime.js"
import { IdsSequence } from "../../layers/Ids.js"
import { JobRunner, JobRunnerLayer, provideJobHandler } from "../../layers/JobRunner.js"
import { JobsLive } from "../../layers/Jobs.js"
import { agentRunHandler } from "../../src/runtime/AgentRunJob.js"
import { RunsRepo } from "../../src/runtime/RunsRepo.js"
import { testConfig } from "../support/config.js"
import { DemoAccounts } from "../../src/accounts/demo.js"

/**
 * One pass of a runner that knows only the agent run job, answered by `runtime`
 * (default: the deterministic one). Returns how many jobs ran.
 */
export const runAgentJobs = (runtime: Layer.Layer<AgentRuntime> = AgentRuntimeDeterministic) =>
  Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(
      JobRunnerLayer([provideJobHandler(agentRunHandler, Layer.merge(RunsRepo.Default, runtime))], [], testConfig().jobs).pipe(
        Layer.provide(JobsLive),
        Layer.provide(IdsSequence("0000000e"))
      )
    )
    return yield* Context.get(context, JobRunner).runDue
  }))

let fixtures = 0

/** Inserts a conversation of `account` with `agent` (no messages) and returns its id. */
export const insertConversation = (
  agent: string,
  account: keyof typeof DemoAccounts,
  kind: "CHAT" | "PLAYGROUND"
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = `0000000c-0000-7000-8000-${(++fixtures).toString(16).padStart(12, "0")}`
    const at = new Date("2026-05-01T00:00:00.000Z")
    yield* sql`INSERT INTO conversations (id, agent_id, account_id, kind, title, created_at, updated_at)
               VALUES (${id}, ${agent}, ${DemoAccounts[account].id}, ${kind}, 'fixture', ${at}, ${at})`
    return id
  }).pipe(Effect.orDie)

/** A run's stored state. */
export const runRow = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ state: string; version: number; failureCode: string | null; dataClearedAt: string | null }>`
      SELECT state, version::int AS version, failure_code AS "failureCode", api_ts(data_cleared_at) AS "dataClearedAt"
      FROM runs WHERE id = ${id}`
    return row!
  }).pipe(Effect.orDie)

/** A conversation's stored messages, by ordinal. */
export const messageRows = (conversationId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{
      id: string
      ordinal: string
      role: string
      state: string
      contentText: string | null
      contentParts: unknown
      parentMessageId: string | null
      completedAt: string | null
    }>`
      SELECT id, ordinal::text AS ordinal, role, state, content_text AS "contentText", content_parts AS "contentParts",
        parent_message_id AS "parentMessageId", api_ts(completed_at) AS "completedAt"
      FROM messages WHERE conversation_id = ${conversationId} ORDER BY ordinal`
  }).pipe(Effect.orDie)
