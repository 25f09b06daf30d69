/**
 * The problem causes of MCP connections (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `connection-not-found`: no such MCP connection of the agent. */
export class ConnectionNotFound extends Problem<ConnectionNotFound>()("ConnectionNotFound", {
  status: 404, type: "connection-not-found", meaning: "no such MCP connection of the agent"
}) {}

/** 409 `connection-exists`: the agent already has an MCP connection to this server URL. */
export class ConnectionExists extends Problem<ConnectionExists>()("ConnectionExists", {
  status: 409, type: "connection-exists", meaning: "the agent already has an MCP connection to this server URL"
}) {}

// OAuth of MCP connections (MCP_BeginMcpOAuth, MCP_CompleteMcpOAuth; MCP authorization, revision 2025-06-18).
// None repeats a token, a code, a state or a server's answer.

/** 422 `oauth-discovery-failed`: the MCP server's authorization server could not be discovered. */
export class OAuthDiscoveryFailed extends Problem<OAuthDiscoveryFailed>()("OAuthDiscoveryFailed", {
  status: 422,
  type: "oauth-discovery-failed",
  meaning: "the MCP server's authorization server could not be discovered (its 401 `WWW-Authenticate`, RFC 9728 " +
    "protected-resource metadata, RFC 8414 or OpenID Connect metadata); `detail` names the step and the rule"
}) {}

/** 422 `oauth-metadata-url-refused`: a URL of the discovered OAuth metadata is not https (or http on an allowed host). */
export class OAuthMetadataUrlRefused extends Problem<OAuthMetadataUrlRefused>()("OAuthMetadataUrlRefused", {
  status: 422,
  type: "oauth-metadata-url-refused",
  meaning: "a URL of the MCP server's protected-resource metadata (RFC 9728 `authorization_servers`) or of its " +
    "authorization server's metadata (RFC 8414: `issuer`, `authorization_endpoint`, `token_endpoint`, " +
    "`registration_endpoint`, …) is not an https URL (http only for hosts in `OUTBOUND_ALLOWED_HOSTS`), or carries " +
    "a user name, password or fragment; `detail` names the field and the rule, never the value"
}) {}

/** 422 `oauth-client-registration-failed`: the authorization server refused dynamic client registration. */
export class OAuthClientRegistrationFailed extends Problem<OAuthClientRegistrationFailed>()("OAuthClientRegistrationFailed", {
  status: 422,
  type: "oauth-client-registration-failed",
  meaning: "the authorization server refused or failed the dynamic client registration (RFC 7591)"
}) {}

/** 400 `oauth-state-invalid`: the callback's `state` names no OAuth flow of the signed-in account. */
export class OAuthStateInvalid extends Problem<OAuthStateInvalid>()("OAuthStateInvalid", {
  status: 400,
  type: "oauth-state-invalid",
  meaning: "the `state` names no OAuth flow begun by the signed-in account (unknown, another account's, or purged " +
    "after it expired)"
}) {}

/** 409 `oauth-flow-consumed`: the flow's `state` was already used once. */
export class OAuthFlowConsumed extends Problem<OAuthFlowConsumed>()("OAuthFlowConsumed", {
  status: 409,
  type: "oauth-flow-consumed",
  meaning: "the OAuth flow was already completed or refused: a `state` is used exactly once; begin a new authorization"
}) {}

/** 410 `oauth-flow-expired`: the flow passed its `expiresAt`. */
export class OAuthFlowExpired extends Problem<OAuthFlowExpired>()("OAuthFlowExpired", {
  status: 410,
  type: "oauth-flow-expired",
  meaning: "the OAuth flow passed its `expiresAt` (10 minutes after it began); begin a new authorization"
}) {}

/** 422 `oauth-authorization-denied`: the authorization server answered the callback with an error. */
export class OAuthAuthorizationDenied extends Problem<OAuthAuthorizationDenied>()("OAuthAuthorizationDenied", {
  status: 422,
  type: "oauth-authorization-denied",
  meaning: "the authorization server answered with an error instead of a code (RFC 6749 §4.1.2.1, e.g. " +
    "`access_denied`), or its answer failed validation (RFC 9207 `iss`); the flow is used up"
}) {}

/** 422 `oauth-grant-refused`: the token endpoint refused the code or the refresh token. */
export class OAuthGrantRefused extends Problem<OAuthGrantRefused>()("OAuthGrantRefused", {
  status: 422,
  type: "oauth-grant-refused",
  meaning: "the authorization server's token endpoint refused the grant (RFC 6749 §5.2, e.g. `invalid_grant`) or " +
    "answered something unusable; the flow is used up"
}) {}

/** 503 `authorization-server-unavailable`: the authorization server could not be reached. */
export class AuthorizationServerUnavailable extends Problem<AuthorizationServerUnavailable>()("AuthorizationServerUnavailable", {
  status: 503,
  type: "authorization-server-unavailable",
  meaning: "the authorization server could not be reached, or its address is refused (`OUTBOUND_ALLOWED_HOSTS`); the " +
    "flow is used up: begin a new authorization"
}) {}
