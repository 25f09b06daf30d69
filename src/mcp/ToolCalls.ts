/**
 * Running a tool of an MCP connection for an agent run: `tools/call` through the real MCP
 * client (`./Client.ts` `callTool`) on the connection, with the connection's access token
 * (`McpAccessToken` from `McpAccessTokenLive`: the stored OAuth token, refreshed when due;
 * MCP authorization 2025-06-18, `Authorization: Bearer` on every request) and the guarded
 * outbound fetch; the tool name is the one the server listed (the remote definition's `name`).
 */
import { Effect, Option } from "effect"
import { McpSettings } from "./Config.js"
import { Outbound } from "../../layers/Outbound.js"
import { McpAccessToken } from "./oauth/AccessToken.js"
import { callTool } from "./Client.js"
import { McpConnectionsRepo } from "./connections/Repo.js"
import { McpAccessTokenLive } from "./oauth/Tokens.js"

/**
 * What a tool call answered, as a run records it: `result` (the tool's `content` and, when
 * given, `structuredContent`; or `{ error }`), `isError`, and `errorCode` (`TOOL_UNAVAILABLE`,
 * `TOOL_CALL_FAILED`, `TOOL_ERROR`; `null` on success).
 */
export interface McpToolOutcome {
  readonly result: unknown
  readonly isError: boolean
  readonly errorCode: string | null
}

/**
 * Tool calls on MCP connections, with each connection's stored access token. Requires
 * `SqlClient`, `McpSettings`, `Outbound`.
 */
export class McpToolCalls extends Effect.Service<McpToolCalls>()("agent-directory/McpToolCalls", {
  effect: Effect.gen(function*() {
    const repo = yield* McpConnectionsRepo
    const tokens = yield* McpAccessToken
    const config = yield* McpSettings
    const outbound = yield* Outbound

    /**
     * Calls the tool named `remoteName` on connection `connectionId` with `args`. Never
     * fails: a connection that is gone or DISABLED is `TOOL_UNAVAILABLE`, a call the server
     * could not answer `TOOL_CALL_FAILED` (with the client's failure code, e.g. `timeout`,
     * `auth-required`), a tool that reported an error `TOOL_ERROR`; each an error result
     * the model sees.
     */
    const call = (input: {
      readonly connectionId: string
      readonly remoteName: string
      readonly args: Record<string, unknown>
    }): Effect.Effect<McpToolOutcome> =>
      Effect.gen(function*() {
        const target = yield* repo.refreshTarget(input.connectionId).pipe(Effect.orDie)
        if (Option.isNone(target) || target.value.state === "DISABLED") {
          return { result: { error: "The tool's MCP connection is not available." }, isError: true, errorCode: "TOOL_UNAVAILABLE" }
        }
        const accessToken = yield* tokens.accessToken(input.connectionId)
        return yield* callTool({
          serverUrl: target.value.serverUrl,
          transport: target.value.transport,
          accessToken,
          fetch: outbound.fetch,
          timeoutMs: config.mcpCatalog.requestTimeoutMs,
          name: input.remoteName,
          arguments: input.args
        }).pipe(
          Effect.map((answer): McpToolOutcome => ({
            result: answer.structuredContent === null
              ? { content: answer.content }
              : { content: answer.content, structuredContent: answer.structuredContent },
            isError: answer.isError,
            errorCode: answer.isError ? "TOOL_ERROR" : null
          })),
          Effect.catchTag("CatalogFetchFailure", (failure) =>
            Effect.succeed<McpToolOutcome>({
              result: { error: `The MCP server could not answer the call (${failure.code}).` },
              isError: true,
              errorCode: "TOOL_CALL_FAILED"
            }))
        )
      }).pipe(Effect.withSpan("runMcpTool"))

    return { call }
  }),
  dependencies: [McpConnectionsRepo.Default, McpAccessTokenLive]
}) {}
