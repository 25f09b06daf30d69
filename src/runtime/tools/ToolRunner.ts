/**
 * Runs one tool call of a run by its tool's `executorKind`: BUILTIN tools in
 * this process (`./BuiltinTools.ts`), MCP tools through the agent's MCP connection
 * (the MCP area's `McpToolCalls`). Arguments were validated against the tool's `inputSchema` when the
 * call was recorded.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { CursorLive } from "../../../layers/Cursor.js"
import { Outbound } from "../../../layers/Outbound.js"
import { Agents } from "../../agents/index.js"
import { Bounties } from "../../jobs/index.js"
import { McpToolCalls } from "../../mcp/index.js"
import { runBuiltinTool, type ToolOutcome } from "./BuiltinTools.js"

const asObject = (u: unknown): Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u) ? u as Record<string, unknown> : {}

/**
 * A recorded tool call, as the run loop hands it over: its tool's `executorKind` (`BUILTIN`,
 * `MCP`, or null when unknown), `stableName`, `sourceReference` (an MCP tool's connection id),
 * `remoteName` (the name the MCP server listed), its validated `arguments`, the run's agent and
 * who approved the call.
 */
export interface ToolCallToRun {
  readonly executorKind: string | null
  readonly stableName: string
  readonly sourceReference: string | null
  readonly remoteName: string | null
  readonly arguments: unknown
  /** The run's agent. */
  readonly agentId: string
  /** The account that approved the call, when one did. */
  readonly decidedBy: string | null
}

/** Runs tool calls. Never fails: whatever goes wrong is the call's error result. */
export class ToolRunner extends Effect.Service<ToolRunner>()("agent-directory/ToolRunner", {
  effect: Effect.gen(function*() {
    const agents = yield* Agents
    const bounties = yield* Bounties
    const sql = yield* SqlClient.SqlClient
    const mcpTools = yield* McpToolCalls
    const outbound = yield* Outbound

    /** The outcome of `call` (its tool's executor, its arguments). */
    const run = (
      call: ToolCallToRun
    ): Effect.Effect<ToolOutcome> =>
      (call.executorKind === "BUILTIN"
        ? runBuiltinTool(call.stableName, asObject(call.arguments), { agentId: call.agentId, approvedBy: call.decidedBy })
        : call.executorKind === "MCP" && call.sourceReference !== null && call.remoteName !== null
        ? mcpTools.call({ connectionId: call.sourceReference, remoteName: call.remoteName, args: asObject(call.arguments) })
        : Effect.succeed<ToolOutcome>({
          result: { error: "This tool cannot be run by the directory." },
          isError: true,
          errorCode: "TOOL_UNAVAILABLE"
        }) as Effect.Effect<ToolOutcome, never, Agents | Bounties | SqlClient.SqlClient | Outbound>).pipe(
        Effect.provideService(Agents, agents),
        Effect.provideService(Bounties, bounties),
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.provideService(Outbound, outbound)
      )

    return { run }
  })
}) {}

/**
 * {@link ToolRunner} with what it needs from this service: the directory reads, the bounty
 * commands and the tool calls on MCP connections. Requires `SqlClient`, `Ids`, `McpSettings`,
 * `Outbound`, `TransactionIntents`, `PlatformSigner`, `Chain`, `BountySettings`.
 */
export const ToolRunnerLive = ToolRunner.Default.pipe(
  Layer.provide([Agents.Default, McpToolCalls.Default, Bounties.Default]),
  Layer.provide(CursorLive)
)
