/**
 * OAuth 2.1 authorization requests with PKCE (RFC 6749 §4.1.1, RFC 7636, OAuth 2.1
 * draft §4.1.1) for MCP connections. `oauth4webapi` makes the secrets: a random
 * `code_verifier` (43 chars of base64url), its S256 `code_challenge`, and a random
 * `state`. The verifier and the state stay on the server; only the challenge and the
 * state travel in the URL. The flow around it is in `./McpOAuth.ts`.
 */
import { Effect } from "effect"
import { calculatePKCECodeChallenge, generateRandomCodeVerifier, generateRandomState } from "oauth4webapi"

/** The connection's authorization server metadata this needs. */
export interface AuthorizationServer {
  readonly authorizationEndpoint: string
  readonly clientId: string
  readonly redirectUri: string
  /** The MCP server's canonical URI, sent as the RFC 8707 `resource` parameter. */
  readonly resource: string
}

/** An authorization request: the URL to send the user to, and the secrets to keep. */
export interface AuthorizationRequest {
  readonly authorizationUrl: string
  readonly codeVerifier: string
  readonly state: string
}

/**
 * Builds the authorization URL: the endpoint's own query kept, plus `response_type=code`,
 * `client_id`, `redirect_uri`, `scope` (the scopes joined by spaces; omitted when none),
 * `state`, `code_challenge`, `code_challenge_method=S256` and `resource` (RFC 8707, which
 * the MCP authorization spec requires so the token is bound to the one MCP server).
 */
export const authorizationRequest = (
  server: AuthorizationServer,
  scopes: ReadonlyArray<string>
): Effect.Effect<AuthorizationRequest> =>
  Effect.gen(function*() {
    const codeVerifier = generateRandomCodeVerifier()
    const state = generateRandomState()
    const challenge = yield* Effect.promise(() => calculatePKCECodeChallenge(codeVerifier))
    const url = new URL(server.authorizationEndpoint)
    url.searchParams.set("response_type", "code")
    url.searchParams.set("client_id", server.clientId)
    url.searchParams.set("redirect_uri", server.redirectUri)
    if (scopes.length > 0) url.searchParams.set("scope", scopes.join(" "))
    url.searchParams.set("state", state)
    url.searchParams.set("code_challenge", challenge)
    url.searchParams.set("code_challenge_method", "S256")
    url.searchParams.set("resource", server.resource)
    return { authorizationUrl: url.toString(), codeVerifier, state }
  })
