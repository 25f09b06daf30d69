/** MCP area (spec §2.16, §4.4): observed catalogs and OAuth authorization. */
import { Schema } from "effect"
import { AnyJson, DateTimeZ, rule, StrictStruct, Uuid } from "./common.js"

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
