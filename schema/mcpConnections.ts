/**
 * The MCP connection resource and its request bodies (beyond the spec's
 * listed operations, in its conventions: §2.1 types, version for optimistic concurrency).
 */
import { Schema } from "effect"
import { DateTimeZ, HttpUrl, StrictStruct, Uuid, Version, WireString, rule } from "./common.js"

/**
 * How the server is reached: `STREAMABLE_HTTP` (MCP 2025-06-18 Streamable HTTP), `SSE`
 * (the 2024-11-05 HTTP+SSE transport) or `AUTO` (Streamable HTTP, falling back to SSE when
 * the server answers the `initialize` POST with a 4xx other than 401).
 */
export const McpTransport = Schema.Literal("STREAMABLE_HTTP", "SSE", "AUTO").annotations({
  identifier: "McpTransport",
  ...rule("must be one of STREAMABLE_HTTP, SSE, AUTO")
})

/**
 * A connection's state: `PENDING` (created, catalog not yet fetched), `CONNECTED` (the
 * last fetch succeeded), `AUTH_REQUIRED` (the server answered 401: authorize it with
 * MCP_BeginMcpOAuth), `UNREACHABLE` (the last fetch failed otherwise; `lastFailure` says
 * why), `DISABLED` (not fetched).
 */
export const McpConnectionState = Schema.Literal("PENDING", "CONNECTED", "AUTH_REQUIRED", "UNREACHABLE", "DISABLED")
  .annotations({ identifier: "McpConnectionState" })

/** What a connection's last observed catalog holds, without its content (MCP_GetMcpCatalog has it). */
export const McpCatalogSummary = Schema.Struct({
  /** The catalog's digest (see MCP_GetMcpCatalog). */
  digest: Schema.String,
  protocolVersion: Schema.String,
  toolCount: Schema.Int,
  resourceCount: Schema.Int,
  resourceTemplateCount: Schema.Int,
  promptCount: Schema.Int,
  observedAt: DateTimeZ,
  expiresAt: Schema.NullOr(DateTimeZ),
  /** True once `expiresAt` has passed: the catalog is older than its time to live. */
  stale: Schema.Boolean
}).annotations({ identifier: "McpCatalogSummary" })
export type McpCatalogSummary = typeof McpCatalogSummary.Type

/** An agent's MCP connection. */
export const McpConnection = Schema.Struct({
  id: Uuid,
  entityPublicId: Uuid,
  name: Schema.String,
  serverUrl: Schema.String,
  transport: McpTransport,
  state: McpConnectionState,
  /**
   * Why the last fetch failed (null after a success): `auth-required`, `target-refused`,
   * `response-too-large`, `timeout`, `network-error`, `http-<status>`, `protocol-error`.
   */
  lastFailure: Schema.NullOr(Schema.String),
  /** When the last fetch of the catalog ended, successful or not. */
  lastAttemptedAt: Schema.NullOr(DateTimeZ),
  /** The last observed catalog, or null when none was ever observed. */
  catalog: Schema.NullOr(McpCatalogSummary),
  version: Version,
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "McpConnection" })
export type McpConnection = typeof McpConnection.Type

/** Body of MCP_CreateMcpConnection. */
export const CreateMcpConnectionRequest = StrictStruct({
  /** A label; default: the server URL's host. */
  name: Schema.optional(WireString(1, 200)),
  serverUrl: HttpUrl(2000),
  transport: Schema.optionalWith(McpTransport, { default: () => "AUTO" as const, exact: true })
}).annotations({ identifier: "CreateMcpConnectionRequest" })
export type CreateMcpConnectionRequest = typeof CreateMcpConnectionRequest.Type

/** Body of MCP_RefreshMcpCatalog: the empty object `{}`. */
export const RefreshMcpCatalogRequest = Schema.Record({
  key: Schema.String,
  value: Schema.Never.annotations(rule("is not allowed: the body is the empty object {}"))
}).annotations({ identifier: "RefreshMcpCatalogRequest" })

/** Result of MCP_RefreshMcpCatalog: the connection whose catalog fetch was started, and when. */
export const McpCatalogRefresh = Schema.Struct({
  connection: McpConnection,
  requestedAt: DateTimeZ
}).annotations({ identifier: "McpCatalogRefresh" })
export type McpCatalogRefresh = typeof McpCatalogRefresh.Type
