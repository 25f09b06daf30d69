/**
 * The OAuth redirect endpoint of MCP connections (ours, beyond spec §4.4; MCP
 * authorization, revision 2025-06-18): where the authorization server sends the
 * browser back after MCP_BeginMcpOAuth. Added to the MCP group in `../Api.ts`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Data } from "../../../schema/envelope.js"
import { CompleteMcpOAuthQuery, McpOAuthCompletion } from "../Schemas.js"
import { operation } from "../../api/operation.js"
import {
  AuthorizationServerUnavailable,
  OAuthAuthorizationDenied,
  OAuthFlowConsumed,
  OAuthFlowExpired,
  OAuthGrantRefused,
  OAuthMetadataUrlRefused,
  OAuthStateInvalid
} from "../Errors.js"

/** `GET /api/v1/mcp/oauth/callback` (MCP_CompleteMcpOAuth). */
export const CompleteMcpOAuth = HttpApiEndpoint.get("completeMcpOAuth", "/api/v1/mcp/oauth/callback")
  .setUrlParams(CompleteMcpOAuthQuery)
  .addSuccess(Data(McpOAuthCompletion))
  .pipe(
    operation({
      id: "MCP_CompleteMcpOAuth",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 409, 410, 422, 500, 503],
      summary: "Complete an MCP connection's OAuth authorization (the redirect endpoint)",
      description: "The `redirect_uri` of every authorization MCP_BeginMcpOAuth starts " +
        "(`{PUBLIC_BASE_URL}/api/v1/mcp/oauth/callback`): the authorization server sends the browser here with " +
        "`code` and `state` (RFC 6749 §4.1.2), or `error` (§4.1.2.1). The browser's session cookie (SameSite=Lax, so " +
        "it travels with this top-level redirect) must be the account's that began the flow: the `state` is bound " +
        "to it (RFC 6749 §10.12), and is the capability of this GET, so no CSRF header is asked. A `state` is used " +
        "exactly once, whatever the outcome: the flow is used up before the code is exchanged. The code is " +
        "exchanged at the token endpoint with the PKCE `code_verifier`, the same `redirect_uri` and the RFC 8707 " +
        "`resource` (the MCP server's canonical URI); the access and refresh tokens are stored encrypted at rest " +
        "(AES-256-GCM, keys `MCP_TOKEN_KEYS`) and never shown; the connection becomes CONNECTED and its catalog is " +
        "fetched with the token, which is refreshed before it expires. The answer is JSON (this API has no pages): " +
        "a front end that wants a page should register its own redirect and forward the query here. " +
        "An unknown state, or another account's, answers 400 `oauth-state-invalid`; a used one 409 " +
        "`oauth-flow-consumed`; one past `expiresAt` 410 `oauth-flow-expired` (expired flows are purged within 15 " +
        "minutes, after which they are unknown); an `error` from the server 422 `oauth-authorization-denied`; a " +
        "refused code 422 `oauth-grant-refused`; an unreachable server 503 `authorization-server-unavailable`; " +
        "authorization server metadata naming a URL that is not https (http only for hosts in " +
        "`OUTBOUND_ALLOWED_HOSTS`) 422 `oauth-metadata-url-refused` naming the field.",
      errors: [
        OAuthStateInvalid,
        OAuthFlowConsumed,
        OAuthFlowExpired,
        OAuthAuthorizationDenied,
        OAuthGrantRefused,
        AuthorizationServerUnavailable,
        OAuthMetadataUrlRefused
      ]
    })
  )
