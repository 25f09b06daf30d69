/** MCP area (spec §2.16, §4.4): observed catalogs and OAuth authorization. */
import { Schema } from "effect"
import { DateTimeZ, rule, StrictStruct, Uuid } from "./common.js"
import { AnyJson } from "./runtime.js"

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
