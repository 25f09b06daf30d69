/**
 * The settings of the directory's own MCP server at `/mcp`, read from the environment (Effect
 * `Config`) and validated at start-up (docs/configuration.md). The root provides
 * {@link McpServerSettingsLive} with the other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer } from "effect"
import { boundedInteger } from "../../layers/AppConfig.js"

/** The `/mcp` server's settings. */
export interface McpServerSettingsShape {
  /**
   * At most `maxSessions` live sessions (`MCP_MAX_SESSIONS`, 1..100000, default 1000) per
   * process, each ended after `sessionIdleSeconds` without a request
   * (`MCP_SESSION_IDLE_SECONDS`, 10..86400, default 900).
   */
  readonly mcpServer: { readonly maxSessions: number; readonly sessionIdleSeconds: number }
}

/** The `/mcp` server's settings. */
export class McpServerSettings
  extends Context.Tag("agent-directory/McpServerSettings")<McpServerSettings, McpServerSettingsShape>()
{}

/** Reads and validates the `/mcp` server's settings (`ConfigProvider`); fails with `ConfigError`. */
export const mcpServerSettings: Config.Config<McpServerSettingsShape> = Config.all({
  mcpServer: Config.all({
    maxSessions: boundedInteger("MCP_MAX_SESSIONS", 1, 100_000, 1000),
    sessionIdleSeconds: boundedInteger("MCP_SESSION_IDLE_SECONDS", 10, 86_400, 900)
  })
})

/** The `/mcp` server's settings from the environment. */
export const McpServerSettingsLive = Layer.effect(McpServerSettings, mcpServerSettings)
