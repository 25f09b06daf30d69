/**
 * The OAuth client this service is at an MCP server's authorization server (MCP
 * authorization, revision 2025-06-18, §"Dynamic Client Registration"):
 *
 * - a client the operator registered by hand for that issuer (`MCP_OAUTH_CLIENTS`),
 *   when there is one: an explicit choice wins over registering yet another client;
 * - else, when the server's metadata offers a `registration_endpoint`, a client
 *   registered now by RFC 7591 dynamic registration (`redirect_uris` = our callback,
 *   grants `authorization_code` and `refresh_token`, a public client with
 *   `token_endpoint_auth_method` `none` unless the server insists on a secret);
 * - else none: the caller answers 422 `configuration-missing`.
 */
import { Data, Effect, Redacted } from "effect"
import * as oauth from "oauth4webapi"
import type { ConfiguredClient } from "../../../layers/McpOAuthConfig.js"
import type { OutboundShape } from "../../../layers/Outbound.js"
import { oauthOptions, reasonOf } from "./Discovery.js"

/** Where a client comes from (`mcp_connections.oauth_client_source`). */
export type ClientSource = "CONFIGURED" | "REGISTERED" | "SEEDED"

/** The client to use with one authorization server. */
export interface OAuthClientCredentials {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string> | undefined
  readonly tokenEndpointAuthMethod: string
  readonly source: ClientSource
}

/** No registration endpoint and no configured client for the issuer. */
export class NoClientAvailable extends Data.TaggedError("NoClientAvailable")<{ readonly issuer: string }> {}

/** The registration endpoint refused or failed; `rule` says why. */
export class RegistrationFailed extends Data.TaggedError("RegistrationFailed")<{ readonly rule: string }> {}

/**
 * The client for `as` (see the module's description). Fails with
 * {@link NoClientAvailable} or {@link RegistrationFailed}.
 */
export const clientFor = (
  outbound: OutboundShape,
  as: oauth.AuthorizationServer,
  redirectUri: string,
  configured: Readonly<Record<string, ConfiguredClient>>
): Effect.Effect<OAuthClientCredentials, NoClientAvailable | RegistrationFailed> => {
  const byHand = configured[as.issuer]
  if (byHand !== undefined) {
    return Effect.succeed({
      clientId: byHand.clientId,
      clientSecret: byHand.clientSecret,
      tokenEndpointAuthMethod: byHand.tokenEndpointAuthMethod,
      source: "CONFIGURED"
    })
  }
  const endpoint = as.registration_endpoint
  if (endpoint === undefined) return Effect.fail(new NoClientAvailable({ issuer: as.issuer }))
  const methods = as.token_endpoint_auth_methods_supported
  const method = methods === undefined || methods.includes("none") ? "none" : "client_secret_basic"
  return Effect.tryPromise({
    try: async () => {
      const response = await oauth.dynamicClientRegistrationRequest(as, {
        client_name: "Agent Directory",
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: method
      }, oauthOptions(outbound, endpoint))
      const client = await oauth.processDynamicClientRegistrationResponse(response)
      const secret = typeof client.client_secret === "string" ? client.client_secret : undefined
      return {
        clientId: client.client_id,
        clientSecret: secret === undefined ? undefined : Redacted.make(secret),
        tokenEndpointAuthMethod: typeof client.token_endpoint_auth_method === "string"
          ? client.token_endpoint_auth_method
          : secret === undefined ? "none" : "client_secret_basic",
        source: "REGISTERED" as const
      }
    },
    catch: (error) => new RegistrationFailed({ rule: reasonOf(error) })
  })
}

/** The `oauth4webapi` client authentication of `client` (RFC 6749 §2.3). */
export const clientAuthentication = (client: {
  readonly clientSecret: Redacted.Redacted<string> | undefined
  readonly tokenEndpointAuthMethod: string
}): oauth.ClientAuth => {
  if (client.clientSecret === undefined) return oauth.None()
  const secret = Redacted.value(client.clientSecret)
  return client.tokenEndpointAuthMethod === "client_secret_post" ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret)
}
