/**
 * Faults of the run loop with real server processes: each test starts
 * `src/main.ts` as real processes (socket runners of the durable engine) on a scratch copy
 * of the seeded PostgreSQL database, connects the demo agent to a real MCP server running
 * in this process (`test/support/mcpServer.ts`; the processes may reach 127.0.0.1 through
 * `OUTBOUND_ALLOWED_HOSTS`), and drives runs through HTTP with the deterministic runtime's
 * `/tool <name> <json>` directive.
 *
 * (a) A runner SIGKILLed in the middle of an MCP tool call (the handler blocks until the
 *     test releases it; the process that made the call is found from the call's TCP port):
 *     the other process takes the run over once the engine sees the runner gone, and
 *     finishes it. The tool has side effects (`executionClass` SIDE_EFFECT), so it is not
 *     called again: the call ends FAILED `TOOL_INTERRUPTED` (AgentRunWorkflow.ts), the
 *     model gets that result and the run ends SUCCEEDED; the tool was called exactly once.
 * (b) A run waiting in APPROVAL_REQUIRED on process A; A is SIGKILLed; B starts on the same
 *     database; the approval given through B resumes the run, which SUCCEEDS with the tool
 *     called once.
 *
 * The processes run with short takeover timings (`ENGINE_RUNNER_HEALTH_CHECK_MS` and the
 * other `ENGINE_*` settings of layers/AppConfig.ts, as the engine's own fault tests'
 * `FastTakeover`): the survivor pings the others every second and takes a dead runner's
 * shards within seconds. The waits are generous bounds for a loaded machine (no timing is
 * asserted). When a test fails, the processes' state and output and the database's
 * sessions and locks are printed.
 *
 * PostgreSQL only: the embedded database belongs to one process (no second process can open it).
 */
import { FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Redacted, type Scope } from "effect"
import { DemoRuntimeAgents } from "../../src/runtime/demo.js"
import { ToolInterruptedCode } from "../../src/runtime/loop/AgentRunWorkflow.js"
import { databaseUrl, onPostgres } from "../support/database.js"
import { query } from "../support/engineCluster.js"
import { waitFor } from "../support/waitFor.js"
import { call, signIn } from "../support/http.js"
import { TestMcpServer } from "../support/mcpServer.js"
import { against, serverDiagnostics, type ServerProcess, serverWithPort, spawnServer } from "../support/serverProcesses.js"
import { cloneTemplate } from "../support/TestServer.js"
import { awaitState, connectMcpTools, send, toolCalls } from "./runLoopSupport.js"
import { insertConversation } from "./support.js"

const agent = DemoRuntimeAgents.configured
/**
 * The processes' settings: the test's MCP server is on 127.0.0.1; takeover within seconds;
 * and an MCP tool call may take 5 minutes (`MCP_REQUEST_TIMEOUT_MS`, and the outbound
 * client's `OUTBOUND_TIMEOUT_MS` bounding each wait for headers), not the default 10 s: the
 * `slow` call must still be in flight when its caller is killed, however long the loaded
 * machine takes to get there. With 10 s, a pause of the test between the call's arrival
 * and the kill let the caller's call end first (undici `HeadersTimeoutError` in the
 * process, the call FAILED `TOOL_CALL_FAILED`, the run finished by the caller itself).
 */
const env = {
  OUTBOUND_ALLOWED_HOSTS: "127.0.0.1",
  MCP_REQUEST_TIMEOUT_MS: "300000",
  OUTBOUND_TIMEOUT_MS: "300000",
  // pools of 10, as the engine's fault tests' runners: the PostgreSQL server is shared (100 connections)
  DB_POOL_MAX: "10",
  ENGINE_SHARD_LOCK_REFRESH_MS: "3000",
  ENGINE_SHARD_LOCK_EXPIRATION_MS: "15000",
  ENGINE_REFRESH_ASSIGNMENTS_MS: "500",
  ENGINE_RUNNER_HEALTH_CHECK_MS: "1000",
  ENGINE_ENTITY_TERMINATION_TIMEOUT_MS: "5000"
}
/** How long a run may take to be taken over by another runner and finish (a bound, not an expectation). */
const takeoverMs = 120_000

/** A clone of the seeded template, dropped (sessions and all) when the scope closes; with SQL on it. */
const seededDatabase = Effect.gen(function*() {
  const url = yield* Effect.acquireRelease(cloneTemplate(), (url) =>
    query(databaseUrl, `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`).pipe(Effect.ignore))
  const db = PgClient.layer({ url: Redacted.make(url), maxConnections: 2 })
  const sqlHere = <X, E, R>(effect: Effect.Effect<X, E, R>) => Effect.provide(effect, db)
  return { url, sqlHere }
})

/**
 * `against(server)`, bounded: a server process that does not answer within 90 s fails the
 * test there (with the diagnostics of {@link withServers}) instead of after undici's 300 s.
 */
const on = (server: ServerProcess) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  against(server)(effect).pipe(
    Effect.timeoutFail({ duration: "90 seconds", onTimeout: () => new Error(`${server.proc.label} did not answer within 90 s`) })
  )

/**
 * `test` with the server processes it starts through `start`; when it fails (or is
 * interrupted), the processes' state and output and the database's sessions are printed.
 */
const withServers = <A, E, R>(
  test: (start: (label: string, url: string) => Effect.Effect<ServerProcess, Error, Scope.Scope>) => Effect.Effect<A, E, R>
) => {
  const servers: Array<ServerProcess> = []
  let database: string | undefined
  const start = (label: string, url: string) => {
    database = url
    return Effect.tap(spawnServer(label, url, env), (server) => Effect.sync(() => servers.push(server)))
  }
  return test(start).pipe(Effect.onExit((exit) =>
    Exit.isSuccess(exit) ? Effect.void : Effect.gen(function*() {
      const sessions = database === undefined ? [] : yield* query(database,
        `SELECT pid, application_name, state, wait_event_type, wait_event, now() - xact_start AS xact_age,
                now() - state_change AS state_age, left(query, 200) AS query
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY pid`).pipe(
        // `query` dies when it cannot connect (e.g. the server is out of connections)
        Effect.catchAllCause(() => Effect.succeed([]))
      )
      const locks = database === undefined ? [] : yield* query(database,
        `SELECT pid, locktype, mode, granted, count(*)::int AS n FROM pg_locks
         WHERE database = (SELECT oid FROM pg_database WHERE datname = current_database()) GROUP BY 1, 2, 3, 4 ORDER BY 1`).pipe(
        // `query` dies when it cannot connect (e.g. the server is out of connections)
        Effect.catchAllCause(() => Effect.succeed([]))
      )
      process.stderr.write(`\n=== server processes of the failed test:${serverDiagnostics(servers)}\n` +
        `=== database sessions:\n${sessions.map((r) => JSON.stringify(r)).join("\n")}\n` +
        `=== locks:\n${locks.map((r) => JSON.stringify(r)).join("\n")}\n`)
    })
  ))
}

/**
 * A test MCP server offering `slow` (side effects, MEDIUM risk: no approval; its handler
 * waits until `release()`) and `wipe` (destructive: HIGH risk, approval required), and
 * the agent's grants of both (connection "Fault tools").
 */
const faultTools = Effect.gen(function*() {
  const mcp = yield* TestMcpServer()
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  mcp.offer.tools.push(
    { name: "slow", description: "Takes its time", annotations: { destructiveHint: false }, inputSchema: { type: "object" } },
    { name: "wipe", description: "Deletes everything", inputSchema: { type: "object", properties: {} } }
  )
  mcp.handlers["slow"] = async () => {
    await released
    return { content: [{ type: "text", text: "slow done" }] }
  }
  mcp.handlers["wipe"] = async () => ({ content: [{ type: "text", text: "wiped" }] })
  const grant = Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE agent_runtime_configs SET tool_grants = ${
      JSON.stringify({ "fault-tools.slow": "GRANTED", "fault-tools.wipe": "GRANTED" })
    }::jsonb WHERE agent_id = ${agent}`).pipe(Effect.orDie)
  return { mcp, release, grant }
})

describe.skipIf(!onPostgres)("run loop faults with real server processes (PostgreSQL only: no second process can open the embedded database)", () => {
  it.live("a runner killed mid-tool-call: another runner finishes the run, the tool called exactly once", () =>
    withServers((start) => Effect.gen(function*() {
      const { sqlHere, url } = yield* seededDatabase
      const { grant, mcp, release } = yield* faultTools
      // one after the other: each creates the engine's tables when it starts
      const a = yield* start("A", url)
      const b = yield* start("B", url)
      yield* sqlHere(grant)
      const owner = yield* on(a)(signIn("owner"))
      // the five tools of the initial offer and ours
      yield* sqlHere(on(a)(connectMcpTools(owner, agent, {
        name: "Fault tools", serverUrl: `${mcp.origin}/mcp`, tools: 7, timeoutMs: 60_000
      })))
      const conversation = yield* sqlHere(insertConversation(agent, "owner", "CHAT"))
      const runId = yield* on(a)(send(owner, conversation, `/tool fault-tools__slow {}`))

      yield* waitFor("the tool call", Effect.sync(() => mcp.calls.length === 1 ? true : undefined), 120_000)
      const caller = yield* serverWithPort([a, b], mcp.callerPorts[0]!)
      expect(caller, "the process that called the tool").toBeDefined()
      const survivor = caller === a ? b : a
      const [running] = yield* sqlHere(toolCalls(runId))
      expect(running).toMatchObject({ stableName: "fault-tools.slow", state: "RUNNING" })
      yield* caller!.proc.kill
      release() // the killed runner's call answers into a closed connection

      const run = yield* sqlHere(awaitState(runId, ["SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED"], takeoverMs))
      expect(run).toMatchObject({ state: "SUCCEEDED", failureCode: null })
      const [interrupted, ...more] = yield* sqlHere(toolCalls(runId))
      expect(more).toEqual([])
      expect(interrupted).toMatchObject({ id: running!.id, state: "FAILED", errorCode: ToolInterruptedCode, isError: true })
      expect(mcp.calls).toEqual([{ name: "slow", arguments: {} }])
      expect(survivor.proc.exited()).toBe(false)
      // the survivor answers for the run
      const ownerOnSurvivor = yield* on(survivor)(signIn("owner"))
      const read = yield* on(survivor)(call("GET", `/api/v1/runs/${runId}`, { session: ownerOnSurvivor }))
      expect(read.status, read.text).toBe(200)
      expect(read.body.data.state).toBe("SUCCEEDED")
    })).pipe(Effect.scoped, Effect.provide(FetchHttpClient.layer)), 300_000)

  it.live("an approval given after a restart resumes the run: approved through a new process, the tool called once", () =>
    withServers((start) => Effect.gen(function*() {
      const { sqlHere, url } = yield* seededDatabase
      const { grant, mcp } = yield* faultTools
      const a = yield* start("A", url)
      yield* sqlHere(grant)
      const ownerOnA = yield* on(a)(signIn("owner"))
      yield* sqlHere(on(a)(connectMcpTools(ownerOnA, agent, {
        name: "Fault tools", serverUrl: `${mcp.origin}/mcp`, tools: 7, timeoutMs: 60_000
      })))
      const conversation = yield* sqlHere(insertConversation(agent, "owner", "CHAT"))
      const runId = yield* on(a)(send(ownerOnA, conversation, `/tool fault-tools__wipe {}`))
      const waiting = yield* sqlHere(awaitState(runId, "APPROVAL_REQUIRED", 60_000))
      const [pending] = yield* sqlHere(toolCalls(runId))
      expect(pending).toMatchObject({ stableName: "fault-tools.wipe", state: "APPROVAL_REQUIRED", approvalState: "PENDING" })
      yield* a.proc.kill

      const b = yield* start("B", url)
      const ownerOnB = yield* on(b)(signIn("owner"))
      const approved = yield* on(b)(call("POST", `/api/v1/runs/${runId}/approvals`, {
        session: ownerOnB, body: { toolCallId: pending!.id, decision: "APPROVE", expectedVersion: waiting.version }
      }))
      expect(approved.status, approved.text).toBe(200)
      expect(approved.body.data.toolCall).toMatchObject({ id: pending!.id, approvalState: "APPROVED" })

      const run = yield* sqlHere(awaitState(runId, ["SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED"], takeoverMs))
      expect(run).toMatchObject({ state: "SUCCEEDED", failureCode: null })
      expect((yield* sqlHere(toolCalls(runId)))[0]).toMatchObject({ state: "SUCCEEDED", approvalState: "APPROVED", errorCode: null })
      expect(mcp.calls).toEqual([{ name: "wipe", arguments: {} }])
    })).pipe(Effect.scoped, Effect.provide(FetchHttpClient.layer)), 300_000)
})
