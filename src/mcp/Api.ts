/** MCP area contract (spec §4.4): observed catalogs and OAuth authorization of MCP connections. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { BeginMcpOAuthRequest, McpCatalog, McpOAuthAuthorization } from "./Schemas.js"
import { operation } from "../api/operation.js"
import { agentVisibility } from "../agentAccess/AgentVisibilityApi.js"
import { AgentNotFound, ConfigurationMissing, InvalidState, RoleRequired } from "../../schema/errors.js"
import { ConnectionNotFound, OAuthClientRegistrationFailed, OAuthDiscoveryFailed, OAuthMetadataUrlRefused } from "./Errors.js"
import { createMcpConnection, getMcpConnection, listMcpConnections, refreshMcpCatalog } from "./connections/Api.js"
import { CompleteMcpOAuth } from "./oauth/Api.js"

const ConnectionPath = Schema.Struct({ entityPublicId: Uuid, connectionPublicId: Uuid })

const connectionVisibility = agentVisibility + " A connection that is not the agent's is not found " +
  "(404 `connection-not-found`)."

export class McpApi extends HttpApiGroup.make("MCP")
  .add(
    HttpApiEndpoint.get("getMcpCatalog", "/api/v1/agents/:entityPublicId/mcp/connections/:connectionPublicId/catalog")
      .setPath(ConnectionPath)
      .addSuccess(Data(McpCatalog))
      .pipe(
        operation({
          id: "MCP_GetMcpCatalog",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 409, 422, 500],
          summary: "The last observed catalog of an agent's MCP connection",
          description: "What the connection's MCP server offered when last observed: protocol version, server " +
            "identity, capabilities, tools, resources, resource templates, prompts and cache metadata (spec §2.16). " +
            "`digest` is `sha256:` + the hex SHA-256 of the canonical JSON (keys sorted, no whitespace) of " +
            "`{protocolVersion, serverIdentity, capabilities, tools, resources, resourceTemplates, prompts}`: it " +
            "changes exactly when the offer changes, not when it is merely observed again. `cacheMetadata` holds how " +
            "the catalog was observed (for a fetched one: `transport`, `ttlSeconds`, `pages` read of each list) and " +
            "states its age at the time of the answer: `ageSeconds` (since `observedAt`), `stale` (true once " +
            "`expiresAt` has passed) and `refreshing` (a fetch of a fresh catalog was started: a read of a stale " +
            "catalog starts one, once per expiry, unless the connection is DISABLED). A stale catalog is never " +
            "answered as fresh. " + connectionVisibility +
            " Every workspace role may read it. A connection whose catalog was never observed (not yet fetched, or " +
            "its fetches failed) answers 422 `configuration-missing`.",
          errors: [AgentNotFound, ConnectionNotFound, ConfigurationMissing]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("beginMcpOAuth", "/api/v1/agents/:entityPublicId/mcp/connections/:connectionPublicId/oauth")
      .setPath(ConnectionPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(BeginMcpOAuthRequest)
      .addSuccess(Data(McpOAuthAuthorization))
      .pipe(
        operation({
          id: "MCP_BeginMcpOAuth",
          permission: "mcp.connect",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500],
          summary: "Begin an OAuth 2.1 authorization (PKCE) of an agent's MCP connection",
          description: "Starts the authorization of the connection's MCP server (MCP authorization, revision " +
            "2025-06-18). Discovery: the server's 401 `WWW-Authenticate` `resource_metadata` (else the RFC 9728 " +
            "well-known URI of the server) → its protected-resource metadata (RFC 9728) → the first authorization " +
            "server's metadata (RFC 8414, else OpenID Connect Discovery). The client: the one `MCP_OAUTH_CLIENTS` " +
            "names for that issuer, else one registered now by dynamic client registration (RFC 7591) when the " +
            "server offers a `registration_endpoint`. What was found is kept on the connection and reused for 24 " +
            "hours. Then the authorization URL: `response_type=code`, `client_id`, `redirect_uri` " +
            "(`{PUBLIC_BASE_URL}/api/v1/mcp/oauth/callback`, MCP_CompleteMcpOAuth), `scope` (the requested `scopes` " +
            "space-separated, else the metadata's `scopes_supported`; omitted when none; at most 50, each an RFC 6749 " +
            "scope-token of 1-200 chars), a random `state`, a PKCE `code_challenge` with " +
            "`code_challenge_method=S256`, and `resource` (RFC 8707: the MCP server's canonical URI). The code " +
            "verifier and the state are kept on the server until `expiresAt` (10 minutes); send the user to " +
            "`authorizationUrl` in a browser signed in as the same account. " + connectionVisibility +
            " Needs the OWNER, ADMIN, EDITOR or OPERATOR role (403 `role-required` otherwise). A DISABLED " +
            "connection answers 409 `invalid-state`; metadata that cannot be discovered 422 " +
            "`oauth-discovery-failed`. Every URL taken from the metadata (the protected resource's " +
            "`authorization_servers`; the authorization server's `issuer`, `authorization_endpoint`, " +
            "`token_endpoint`, `registration_endpoint`, `jwks_uri` and its other endpoints) must be an https URL " +
            "without user name, password or fragment (RFC 8414 §2, RFC 9728 §2, RFC 6749 §3.1), http only for a host " +
            "in `OUTBOUND_ALLOWED_HOSTS`: anything else (`javascript:`, `data:`, http elsewhere) is 422 " +
            "`oauth-metadata-url-refused` naming the field, and `authorizationUrl` is never built from it; a refused registration 422 `oauth-client-registration-failed`; no " +
            "registration endpoint and no configured client 422 `configuration-missing`. Every fetch goes through " +
            "the guarded outbound client (`OUTBOUND_ALLOWED_HOSTS`). Replaying the Idempotency-Key returns the same URL.",
          errors: [
            RoleRequired,
            AgentNotFound,
            ConnectionNotFound,
            InvalidState,
            ConfigurationMissing,
            OAuthDiscoveryFailed,
            OAuthMetadataUrlRefused,
            OAuthClientRegistrationFailed
          ]
        })
      )
  )
  .add(createMcpConnection)
  .add(listMcpConnections)
  .add(getMcpConnection)
  .add(refreshMcpCatalog)
  .add(CompleteMcpOAuth)
  .annotate(OpenApi.Description, "MCP: Model Context Protocol connections of agents")
{}
