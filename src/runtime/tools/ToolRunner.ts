/**
 * Runs one tool call of a run by its tool's `executorKind`: BUILTIN tools in
 * this process (`./BuiltinTools.ts`), MCP tools through the agent's MCP connection
 * (`./McpTools.ts`). Arguments were validated against the tool's `inputSchema` when the
 * call was recorded.
 */
import { Effect, Layer } from "effect"
import { CursorLive } from "../../../layers/Cursor.js"
import { Outbound } from "../../../layers/Outbound.js"
import { Agents } from "../../agents/Agents.js"
import { McpSettings } from "../../mcp/Config.js"
import { McpConnectionsRepo } from "../../mcp/ConnectionsRepo.js"
import { McpAccessTokenLive } from "../../mcp/Tokens.js"
import type { CallRow } from "../loop/Repo.js"
import { runBuiltinTool, type ToolOutcome } from "./BuiltinTools.js"
import { runMcpTool } from "./McpTools.js"

const asObject = (u: unknown): Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u) ? u as Record<string, unknown> : {}

/** Runs tool calls. Never fails: whatever goes wrong is the call's error result. */
export class ToolRunner extends Effect.Service<ToolRunner>()("agent-directory/ToolRunner", {
  effect: Effect.gen(function*() {
    const agents = yield* Agents
    const connections = yield* McpConnectionsRepo
    const outbound = yield* Outbound
    const settings = yield* McpSettings

    /** The outcome of `call` (its tool's executor, its arguments). */
    const run = (
      call: Pick<CallRow, "executorKind" | "stableName" | "sourceReference" | "remoteName" | "arguments">
    ): Effect.Effect<ToolOutcome> =>
      (call.executorKind === "BUILTIN"
        ? runBuiltinTool(call.stableName, asObject(call.arguments))
        : call.executorKind === "MCP" && call.sourceReference !== null && call.remoteName !== null
        ? runMcpTool({ connectionId: call.sourceReference, remoteName: call.remoteName, args: asObject(call.arguments) })
        : Effect.succeed<ToolOutcome>({
          result: { error: "This tool cannot be run by the directory." },
          isError: true,
          errorCode: "TOOL_UNAVAILABLE"
        }) as Effect.Effect<ToolOutcome, never, Agents | McpConnectionsRepo | Outbound | McpSettings>).pipe(
        Effect.provideService(Agents, agents),
        Effect.provideService(McpConnectionsRepo, connections),
        Effect.provideService(Outbound, outbound),
        Effect.provideService(McpSettings, settings)
      )

    return { run }
  })
}) {}

/**
 * {@link ToolRunner} with what it needs from this service: the directory reads, MCP
 * connections and their stored OAuth tokens. Requires `SqlClient`, `AppConfig`, `Outbound`.
 */
export const ToolRunnerLive = ToolRunner.Default.pipe(
  Layer.provide([Agents.Default, McpConnectionsRepo.Default, McpAccessTokenLive]),
  Layer.provide(CursorLive)
)
