/**
 * MCP area (spec §2.16, §4.4): observed catalogs, OAuth authorization, and the MCP connection
 * resource with its request bodies (beyond the spec's listed operations, in its conventions:
 * §2.1 types, version for optimistic concurrency).
 */
import { Schema } from "effect"
import { AnyJson, DateTimeZ, HttpUrl, rule, StrictStruct, Uuid, Version, WireString } from "../../schema/common.js"

/** MCP catalog (spec §2.16): what a connection's server offered when last observed. */
export const McpCatalog = Schema.Struct({
  connectionPublicId: Uuid,
  protocolVersion: Schema.String,
  serverIdentity: AnyJson,
  capabilities: AnyJson,
  tools: AnyJson,
  resources: AnyJson,
  resourceTemplates: AnyJson,
  prompts: AnyJson,
  cacheMetadata: AnyJson,
  /** `sha256:` + hex SHA-256 of the canonical JSON of the catalog content (protocolVersion, serverIdentity, capabilities, tools, resources, resourceTemplates, prompts). */
  digest: Schema.String,
  observedAt: DateTimeZ,
  expiresAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "McpCatalog" })
export type McpCatalog = typeof McpCatalog.Type

/**
 * One OAuth scope (spec §8: 1-200 chars), an RFC 6749 §3.3 scope-token: printable
 * ASCII without space, `"` or `\` (scopes travel space-separated in one parameter).
 */
export const OAuthScope = Schema.String.pipe(
  Schema.pattern(/^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/),
  Schema.annotations({
    ...rule("must be 1-200 printable ASCII characters without space, quote or backslash (an OAuth scope-token)"),
    jsonSchema: { minLength: 1, maxLength: 200, pattern: "^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,200}$" }
  })
)

/** Body of MCP_BeginMcpOAuth (spec §4.4, §8): the scopes to request. */
export const BeginMcpOAuthRequest = StrictStruct({
  scopes: Schema.optionalWith(Schema.Array(OAuthScope).pipe(
    // without override: an invalid element keeps its own message, the count its own
    Schema.maxItems(50, { message: () => ({ message: "must have at most 50 items", override: false }) })
  ), {
    default: () => [],
    exact: true
  })
}).annotations({ identifier: "BeginMcpOAuthRequest" })
export type BeginMcpOAuthRequest = typeof BeginMcpOAuthRequest.Type

/** Result of MCP_BeginMcpOAuth: where to send the user, and until when the flow is valid. */
export const McpOAuthAuthorization = Schema.Struct({
  authorizationUrl: Schema.String.annotations({ jsonSchema: { format: "uri" } }),
  expiresAt: DateTimeZ
}).annotations({ identifier: "McpOAuthAuthorization" })
export type McpOAuthAuthorization = typeof McpOAuthAuthorization.Type

/**
 * Query of MCP_CompleteMcpOAuth: the authorization response (RFC 6749 §4.1.2, §4.1.2.1;
 * RFC 9207 `iss`) the authorization server sends the browser back with. Other
 * parameters a server adds are ignored.
 */
export const CompleteMcpOAuthQuery = Schema.Struct({
  state: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(512)).annotations({
    description: "The `state` of the authorization URL MCP_BeginMcpOAuth returned (single use)."
  }),
  code: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4096)).annotations({
    description: "The authorization code (RFC 6749 §4.1.2)."
  })),
  error: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
    description: "The authorization server's error code instead of a code (RFC 6749 §4.1.2.1), e.g. `access_denied`."
  })),
  error_description: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))),
  error_uri: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))),
  iss: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)).annotations({
    description: "The issuer of the answer (RFC 9207), checked when the server announces it."
  }))
})
export type CompleteMcpOAuthQuery = typeof CompleteMcpOAuthQuery.Type

/** Result of MCP_CompleteMcpOAuth: the authorized connection (its tokens are never shown). */
export const McpOAuthCompletion = Schema.Struct({
  entityPublicId: Uuid,
  connectionPublicId: Uuid,
  /** The connection's state after the authorization: CONNECTED. */
  connectionState: Schema.Literal("CONNECTED", "AUTH_REQUIRED", "DISABLED"),
  /** The scopes granted (the token response's `scope`, else those requested). */
  scopes: Schema.Array(Schema.String),
  /** When the access token expires (it is refreshed before then), null when the server did not say. */
  accessTokenExpiresAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "McpOAuthCompletion" })
export type McpOAuthCompletion = typeof McpOAuthCompletion.Type

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
