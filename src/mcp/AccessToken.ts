/**
 * Where a catalog fetch gets the bearer token of a connection (MCP authorization,
 * 2025-06-18: `Authorization: Bearer <access token>` on every request). By default no
 * connection has one; the MCP OAuth flow provides this reference with its stored (and
 * refreshed) tokens: `Layer.succeed(McpAccessToken, { accessToken: (connectionId) => … })`.
 */
import { Context, Effect, Option, type Redacted } from "effect"

/** The access token of a connection, if one is held. Never fails: no token is `none`. */
export class McpAccessToken extends Context.Reference<McpAccessToken>()("agent-directory/McpAccessToken", {
  defaultValue: () => ({
    accessToken: (_connectionId: string): Effect.Effect<Option.Option<Redacted.Redacted<string>>> => Effect.succeed(Option.none())
  })
}) {}
