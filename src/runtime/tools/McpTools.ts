/**
 * Running an MCP tool of an agent's runtime: `tools/call` through the real MCP
 * client (`src/mcp/Client.ts` `callTool`) on the tool's connection (its `sourceReference`),
 * with the connection's access token (`McpAccessToken`: the stored OAuth token, refreshed
 * when due) and the guarded outbound fetch; the tool name is the one the server listed
 * (the remote definition's `name`).
 */
import { Effect, Option } from "effect"
import { McpSettings } from "../../mcp/Config.js"
import { Outbound } from "../../../layers/Outbound.js"
import { McpAccessToken } from "../../mcp/AccessToken.js"
import { callTool } from "../../mcp/Client.js"
import { McpConnectionsRepo } from "../../mcp/ConnectionsRepo.js"
import type { ToolOutcome } from "./BuiltinTools.js"

/**
 * Calls the tool named `remoteName` on connection `connectionId` with `args`. Never
 * fails: a connection that is gone or DISABLED is `TOOL_UNAVAILABLE`, a call the server
 * could not answer `TOOL_CALL_FAILED` (with the client's failure code, e.g. `timeout`,
 * `auth-required`), a tool that reported an error `TOOL_ERROR`; each an error result
 * the model sees. Requires `McpConnectionsRepo`, `McpAccessToken`, `Outbound`, `McpSettings`.
 */
export const runMcpTool = (input: {
  readonly connectionId: string
  readonly remoteName: string
  readonly args: Record<string, unknown>
}): Effect.Effect<ToolOutcome, never, McpConnectionsRepo | Outbound | McpSettings> =>
  Effect.gen(function*() {
    const repo = yield* McpConnectionsRepo
    const target = yield* repo.refreshTarget(input.connectionId).pipe(Effect.orDie)
    if (Option.isNone(target) || target.value.state === "DISABLED") {
      return { result: { error: "The tool's MCP connection is not available." }, isError: true, errorCode: "TOOL_UNAVAILABLE" }
    }
    const config = yield* McpSettings
    const outbound = yield* Outbound
    const accessToken = yield* Effect.flatMap(McpAccessToken, (tokens) => tokens.accessToken(input.connectionId))
    return yield* callTool({
      serverUrl: target.value.serverUrl,
      transport: target.value.transport,
      accessToken,
      fetch: outbound.fetch,
      timeoutMs: config.mcpCatalog.requestTimeoutMs,
      name: input.remoteName,
      arguments: input.args
    }).pipe(
      Effect.map((answer): ToolOutcome => ({
        result: answer.structuredContent === null
          ? { content: answer.content }
          : { content: answer.content, structuredContent: answer.structuredContent },
        isError: answer.isError,
        errorCode: answer.isError ? "TOOL_ERROR" : null
      })),
      Effect.catchTag("CatalogFetchFailure", (failure) =>
        Effect.succeed<ToolOutcome>({
          result: { error: `The MCP server could not answer the call (${failure.code}).` },
          isError: true,
          errorCode: "TOOL_CALL_FAILED"
        }))
    )
  }).pipe(Effect.withSpan("runMcpTool"))
