/**
 * Shared by the run-loop tests (RunLoop.test.ts, RunFaults.test.ts): sending a message,
 * a run's tool calls, waiting for a run's state, and connecting the agent to a test MCP
 * server through Mcp_CreateConnection until the connection's tools are the agent's
 * runtime tools. Each needs a `SqlClient` on the database the server uses (and, for the
 * HTTP calls, the `HttpClient` of `test/support/http.ts`).
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { call, type Session } from "../support/http.js"
import { until, waitFor } from "../support/waitFor.js"
import { runRow } from "./support.js"

/** Runtime_SendMessage to `conversation` (202 expected); returns the run's id. */
export const send = (session: Session, conversation: string, content: string) =>
  Effect.gen(function*() {
    const reply = yield* call("POST", `/api/v1/conversations/${conversation}/messages`, { session, body: { content } })
    expect(reply.status, reply.text).toBe(202)
    return reply.body.data.run.id as string
  })

/** Run `runId`'s stored tool calls, in order of creation. */
export const toolCalls = (runId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{
      id: string
      stableName: string
      state: string
      approvalState: string
      result: any
      isError: boolean | null
      errorCode: string | null
      arguments: unknown
    }>`SELECT id, stable_name AS "stableName", state, approval_state AS "approvalState", result, is_error AS "isError",
         error_code AS "errorCode", arguments FROM run_tool_calls WHERE run_id = ${runId} ORDER BY created_at, id`
  }).pipe(Effect.orDie)

/** Waits (real time, at most `timeoutMs`) until the run is in one of `states`; returns its row. */
export const awaitState = (runId: string, states: string | ReadonlyArray<string>, timeoutMs = 20_000) =>
  Effect.gen(function*() {
    const wanted = typeof states === "string" ? [states] : states
    return yield* waitFor(
      `run ${runId} to be ${wanted.join(" or ")}`,
      until(runRow(runId), (row) => wanted.includes(row.state), (row) => `still ${row.state}`),
      timeoutMs,
      25
    )
  })

/**
 * Connects `agent` to the MCP server at `serverUrl` (Mcp_CreateConnection named `name`,
 * 201 expected) and waits (real time, at most `timeoutMs`) until at least `tools` runtime
 * tools of the connection (stable names `<slug of name>.*`) are stored.
 */
export const connectMcpTools = (
  session: Session,
  agent: string,
  options: { readonly name: string; readonly serverUrl: string; readonly tools: number; readonly timeoutMs?: number }
) =>
  Effect.gen(function*() {
    const created = yield* call("POST", `/api/v1/agents/${agent}/mcp/connections`, {
      session, body: { name: options.name, serverUrl: options.serverUrl, transport: "STREAMABLE_HTTP" }
    })
    expect(created.status, created.text).toBe(201)
    const sql = yield* SqlClient.SqlClient
    const prefix = `${options.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.%`
    const stored = Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM runtime_tools WHERE agent_id = ${agent}
                                             AND stable_name LIKE ${prefix}`, ([n]) => n!.n)
    yield* waitFor(
      `the tools of connection ${options.name}`,
      until(stored, (n) => n >= options.tools, (n) => `${n} of ${options.tools} stored`),
      options.timeoutMs ?? 20_000,
      25
    )
  })
