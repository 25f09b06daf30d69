/**
 * Where an MCP request gets the bearer token of a connection (MCP authorization,
 * 2025-06-18: `Authorization: Bearer <access token>` on every request). A tag with no
 * default: whoever fetches a connection's catalog or calls its tools must be given one,
 * so no caller sends a protected server an unauthenticated request by omission. The
 * stored (and refreshed) OAuth tokens provide it: `McpAccessTokenLive` (`./Tokens.ts`).
 */
import { Context, type Effect, type Option, type Redacted } from "effect"

/**
 * The access token of a connection: `accessToken(connectionId)` answers `some` token, or
 * `none` when the connection holds none (a request then goes without one). Never fails.
 */
export class McpAccessToken extends Context.Tag("agent-directory/McpAccessToken")<McpAccessToken, {
  readonly accessToken: (connectionId: string) => Effect.Effect<Option.Option<Redacted.Redacted<string>>>
}>() {}
