/** Shared by the conversation and run tests: waiting for a run's workflow, and fixtures. */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Stream } from "effect"
import { AgentRuntime, type AgentRuntimeError, deterministicEvents, type ModelEvent } from "../../layers/AgentRuntime.js"
import { DemoAccounts } from "../../src/accounts/demo.js"
import { FinishedRunStates } from "../../src/runtime/Schemas.js"
import { until, waitFor } from "../support/waitFor.js"
import { AgentRun } from "../../src/runtime/loop/AgentRunWorkflow.js"
import { awaitWorkflow } from "../support/workflows.js"

/**
 * Waits (real time, at most `timeoutMs`) until run `id` is finished (SUCCEEDED, FAILED,
 * …) by its workflow on the test server's engine and the engine has recorded the
 * workflow's end, and returns the run's stored state. Dies when it is not finished in time.
 */
export const awaitRun = (id: string, timeoutMs = 20_000) =>
  Effect.gen(function*() {
    const row = yield* waitFor(
      `run ${id} to finish`,
      until(runRow(id), (row) => (FinishedRunStates as ReadonlyArray<string>).includes(row.state), (row) => `still ${row.state}`),
      timeoutMs,
      25
    )
    yield* awaitWorkflow(AgentRun, { runId: id }, "Complete", timeoutMs)
    return row
  })

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

/**
 * A runtime for the failure tests: each call takes the next step of `script` (a
 * crash mid-answer, or a runtime error) and, once the script is spent, answers as the
 * deterministic runtime does. While `hold()` is in force, calls wait for `release()`.
 */
export const scriptedRuntime = () => {
  const script: Array<"crash" | AgentRuntimeError> = []
  const gate = Effect.unsafeMakeLatch(true)
  let calls = 0
  const layer = Layer.succeed(AgentRuntime, {
    stream: (request) =>
      Stream.unwrap(Effect.gen(function*() {
        yield* gate.await
        calls++
        const step = script.shift()
        if (step === undefined) return Stream.fromIterable(deterministicEvents(request)) as Stream.Stream<ModelEvent, AgentRuntimeError>
        if (step === "crash") {
          return Stream.concat(Stream.make({ _tag: "TextDelta", text: "half an " } as ModelEvent), Stream.dieMessage("process killed"))
        }
        return Stream.fail(step) as Stream.Stream<ModelEvent, AgentRuntimeError>
      }))
  })
  return {
    layer,
    script,
    calls: () => calls,
    hold: () => gate.unsafeClose(),
    release: () => gate.unsafeOpen()
  }
}
