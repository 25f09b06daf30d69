/**
 * OAuth authorization of MCP connections, to the end (spec §4.4 MCP_BeginMcpOAuth; MCP
 * authorization, revision 2025-06-18; our MCP_CompleteMcpOAuth):
 *
 * begin → discovery (`./Discovery.ts`: the server's 401, RFC 9728, RFC 8414 / OIDC),
 * cached on the connection for a day → the client (`./Client.ts`: configured, or
 * RFC 7591 registration) → the authorization URL (`./OAuth.ts`: PKCE S256, `state`,
 * `resource`, scopes) and the flow row (verifier and state, 10 minutes);
 * callback → the flow found by its `state`, bound to the signed-in account, used exactly
 * once → the code exchanged (`oauth4webapi`, PKCE verifier, `resource`) → the tokens
 * sealed at rest (`./Tokens.ts`) → the connection CONNECTED → its catalog refresh started.
 */
import { SqlClient } from "@effect/sql"
import { WorkflowEngine } from "@effect/workflow"
import { Effect, Option } from "effect"
import * as oauth from "oauth4webapi"
import { AppConfig } from "../../../layers/AppConfig.js"
import { McpSettings } from "../Config.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { Outbound, outboundFailureOf } from "../../../layers/Outbound.js"
import { ConfigurationMissing, InvalidState } from "../../../schema/errors.js"
import type { CompleteMcpOAuthQuery, McpOAuthAuthorization, McpOAuthCompletion } from "../Schemas.js"
import { AgentOperators } from "../../agentAccess/Operators.js"
import { OAuthFlowTtlMs } from "../Mcp.js"
import { authorizationRequest } from "./OAuth.js"
import { clientAuthentication, clientFor } from "./Client.js"
import {
  canonicalResource,
  discover,
  isSafeMetadataUrl,
  type MetadataUrlRefused,
  MetadataUrlRule,
  oauthOptions,
  reasonOf,
  refusedAuthorizationServerField
} from "./Discovery.js"
import {
  AuthorizationServerUnavailable,
  ConnectionNotFound,
  OAuthAuthorizationDenied,
  OAuthClientRegistrationFailed,
  OAuthDiscoveryFailed,
  OAuthFlowConsumed,
  OAuthFlowExpired,
  OAuthGrantRefused,
  OAuthMetadataUrlRefused,
  OAuthStateInvalid
} from "../Errors.js"
import { type OAuthConnection, McpOAuthRepo } from "./Repo.js"
import { startCatalogRefresh } from "../catalog/Refresh.js"
import { McpRepo } from "../Repo.js"
import { authorizationServerOf, McpTokens } from "./Tokens.js"
import { rolesFor } from "../../../schema/roles.js"

/** How long discovered OAuth metadata and a registered client are reused: 24 hours. */
export const DiscoveryTtlMs = 24 * 3600_000

/** The path of the OAuth redirect endpoint (MCP_CompleteMcpOAuth). */
export const OAuthCallbackPath = "/api/v1/mcp/oauth/callback"

/** The RFC 6749 §4.1.2.1 error codes a problem may name (any other is "an error"). */
const KnownAuthorizationErrors = new Set([
  "invalid_request", "unauthorized_client", "access_denied", "unsupported_response_type", "invalid_scope",
  "server_error", "temporarily_unavailable", "invalid_target", "consent_required", "login_required", "interaction_required"
])


/** The 422 problem of a refused metadata URL: the field and the rule, not the value. */
export const metadataUrlProblem = (e: Pick<MetadataUrlRefused, "document" | "field">) =>
  new OAuthMetadataUrlRefused({
    detail: `The ${e.document} of the MCP server's authorization is refused: its field ${e.field} ${MetadataUrlRule}.`
  })

/** MCP OAuth. Requires `SqlClient`, `AppConfig`, `McpSettings`, `Outbound`, `Ids`, the `WorkflowEngine`. */
export class McpOAuth extends Effect.Service<McpOAuth>()("agent-directory/McpOAuth", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* McpOAuthRepo
    const mcpRepo = yield* McpRepo
    const operators = yield* AgentOperators
    const tokens = yield* McpTokens
    const ids = yield* Ids
    const engine = yield* WorkflowEngine.WorkflowEngine
    const config = yield* AppConfig
    const settings = yield* McpSettings
    const outbound = yield* Outbound
    const redirectUri = `${config.publicBaseUrl}${OAuthCallbackPath}`

    const findConnection = (input: { readonly entityPublicId: string; readonly connectionId: string }) =>
      repo.connection(input).pipe(
        Effect.orDie,
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new ConnectionNotFound({ detail: `No MCP connection ${input.connectionId} of this agent.` })),
          onSome: Effect.succeed
        }))
      )

    /** The authorization endpoint, client and resource of `c`: cached, else discovered and registered now. */
    const authorizationSettings = (c: OAuthConnection, at: Date) =>
      Effect.gen(function*() {
        const fresh = c.discoveredAt === null || at.getTime() - c.discoveredAt.getTime() < DiscoveryTtlMs
        // what was cached is checked again (against today's OUTBOUND_ALLOWED_HOSTS); a refused cache is discovered anew
        const safe = isSafeMetadataUrl(outbound, c.authorizationEndpoint) &&
          refusedAuthorizationServerField(outbound, c.asMetadata) === undefined
        if (c.authorizationEndpoint !== null && c.clientId !== null && fresh && safe) {
          const as = authorizationServerOf(c)
          return {
            authorizationEndpoint: c.authorizationEndpoint,
            clientId: c.clientId,
            resource: c.resource ?? canonicalResource(c.serverUrl),
            defaultScopes: c.resourceScopes ?? as?.scopes_supported ?? []
          }
        }
        const found = yield* discover(outbound, c.serverUrl, c.resourceMetadataUrl).pipe(
          Effect.catchTags({
            DiscoveryFailed: (e) =>
              new OAuthDiscoveryFailed({ detail: `The MCP server's authorization server could not be discovered: ${e.rule}.` }),
            MetadataUrlRefused: (e) => metadataUrlProblem(e)
          })
        )
        const as = found.authorizationServer
        const client = yield* clientFor(outbound, as, redirectUri, settings.mcpOAuth.clients).pipe(
          Effect.catchTags({
            NoClientAvailable: () =>
              new ConfigurationMissing({
                detail: `The authorization server ${as.issuer} offers no dynamic client registration (RFC 7591) and ` +
                  "MCP_OAUTH_CLIENTS names no client for it."
              }),
            RegistrationFailed: (e) =>
              new OAuthClientRegistrationFailed({ detail: `Dynamic client registration (RFC 7591) failed: ${e.rule}.` })
          })
        )
        yield* repo.cacheDiscovery({
          id: c.id,
          issuer: as.issuer,
          authorizationEndpoint: as.authorization_endpoint!,
          clientId: client.clientId,
          redirectUri,
          resource: found.resource,
          resourceMetadataUrl: found.resourceMetadataUrl,
          resourceScopes: found.resourceScopes,
          asMetadata: as,
          clientSource: client.source === "REGISTERED" ? "REGISTERED" : "CONFIGURED",
          clientSecret: client.source === "REGISTERED" && client.clientSecret !== undefined
            ? tokens.sealClientSecret(c.id, client.clientSecret)
            : null,
          clientAuthMethod: client.tokenEndpointAuthMethod,
          at
        }).pipe(Effect.orDie)
        return {
          authorizationEndpoint: as.authorization_endpoint!,
          clientId: client.clientId,
          resource: found.resource,
          defaultScopes: found.resourceScopes ?? as.scopes_supported ?? []
        }
      })

    /**
     * MCP_BeginMcpOAuth: discovers (or reuses) the connection's authorization server and
     * client, and starts an authorization (code flow, PKCE S256, `state`, RFC 8707
     * `resource`, the requested scopes or else those the metadata lists), keeping the
     * verifier and the state until `expiresAt` (now + 10 minutes). Needs the OWNER,
     * ADMIN, EDITOR or OPERATOR role.
     *
     * Fails with `AgentNotFound`, `ConnectionNotFound`, `RoleRequired`, `InvalidState`
     * (DISABLED), `OAuthDiscoveryFailed`, `OAuthMetadataUrlRefused` (a metadata URL that is
     * not https, nor http on an allowed host), `OAuthClientRegistrationFailed`,
     * `ConfigurationMissing` (no registration endpoint and no configured client).
     */
    const beginOAuth = (input: {
      readonly entityPublicId: string
      readonly connectionId: string
      readonly accountId: string
      readonly scopes: ReadonlyArray<string>
    }) =>
      Effect.gen(function*() {
        yield* operators.access({ ...input, roles: { allowed: rolesFor("mcp.connect"), action: "Connecting an MCP server" } })
        const connection = yield* findConnection(input)
        if (connection.state === "DISABLED") {
          return yield* new InvalidState({ detail: "The connection is DISABLED; enable it before authorizing." })
        }
        const createdAt = yield* now
        const settings = yield* authorizationSettings(connection, createdAt)
        const scopes = input.scopes.length > 0 ? input.scopes : settings.defaultScopes
        const request = yield* authorizationRequest({ ...settings, redirectUri }, scopes)
        const expiresAt = new Date(createdAt.getTime() + OAuthFlowTtlMs)
        yield* mcpRepo.insertFlow({
          id: yield* ids.next,
          connectionId: connection.id,
          accountId: input.accountId,
          state: request.state,
          codeVerifier: request.codeVerifier,
          scopes,
          redirectUri,
          createdAt,
          expiresAt
        }).pipe(Effect.orDie)
        return { authorizationUrl: request.authorizationUrl, expiresAt } satisfies McpOAuthAuthorization
      })

    /**
     * The authorization server metadata of `c`: cached, else read from its issuer now;
     * either way its URLs are checked (`OAuthMetadataUrlRefused`).
     */
    const metadataOf = (c: OAuthConnection) => {
      const document = "authorization server metadata (RFC 8414)" as const
      const checked = (as: oauth.AuthorizationServer) => {
        const field = refusedAuthorizationServerField(outbound, as)
        return field === undefined ? Effect.succeed(as) : Effect.fail(metadataUrlProblem({ document, field }))
      }
      const cached = authorizationServerOf(c)
      if (cached !== undefined) return checked(cached)
      const issuer = c.issuer
      if (issuer !== null && !isSafeMetadataUrl(outbound, issuer)) return Effect.fail(metadataUrlProblem({ document, field: "issuer" }))
      return Effect.tryPromise(async () => {
        if (issuer === null) throw new Error("no issuer")
        const url = new URL(issuer)
        const response = await oauth.discoveryRequest(url, { algorithm: "oauth2", ...oauthOptions(outbound, url) })
        return await oauth.processDiscoveryResponse(url, response)
      }).pipe(
        Effect.mapError((e) =>
          new AuthorizationServerUnavailable({
            detail: `The authorization server's metadata could not be read: ${reasonOf(e.error)}.`
          })
        ),
        Effect.flatMap(checked)
      )
    }

    /**
     * MCP_CompleteMcpOAuth: the redirect endpoint. Finds the flow by `state` (it must be
     * the signed-in account's, not used, not expired), uses it up, exchanges the code
     * (PKCE verifier, `redirect_uri`, `resource`), stores the tokens sealed, makes the
     * connection CONNECTED and starts its catalog refresh.
     *
     * Fails with `OAuthStateInvalid`, `OAuthFlowConsumed`, `OAuthFlowExpired`,
     * `OAuthAuthorizationDenied`, `OAuthGrantRefused`, `AuthorizationServerUnavailable`,
     * `OAuthMetadataUrlRefused` (the authorization server's metadata names a URL that is not
     * https, nor http on an allowed host).
     */
    const completeOAuth = (input: { readonly accountId: string; readonly query: CompleteMcpOAuthQuery }) =>
      Effect.gen(function*() {
        const q = input.query
        const found = yield* repo.flowByState(q.state).pipe(Effect.orDie)
        // another account's state is refused as unknown: a state says nothing to whoever does not own it
        if (Option.isNone(found) || found.value.accountId !== input.accountId) {
          return yield* new OAuthStateInvalid({
            detail: "The state names no OAuth flow of yours in progress; begin the authorization again.",
            errors: [{ in: "query", pointer: "/state", detail: "must be the state of an OAuth flow you began" }]
          })
        }
        const flow = found.value
        if (flow.consumedAt !== null) {
          return yield* new OAuthFlowConsumed({ detail: "This OAuth flow was already used; begin a new authorization." })
        }
        const at = yield* now
        if (flow.expiresAt.getTime() <= at.getTime()) {
          return yield* new OAuthFlowExpired({
            detail: `This OAuth flow expired at ${flow.expiresAt.toISOString()}; begin a new authorization.`
          })
        }
        // used up first, committed on its own: whatever follows, this state never works again
        const consumed = yield* sql.withTransaction(repo.consumeFlow(flow.id, at)).pipe(Effect.orDie)
        if (!consumed) {
          return yield* new OAuthFlowConsumed({ detail: "This OAuth flow was already used; begin a new authorization." })
        }
        if (q.error !== undefined) {
          const named = KnownAuthorizationErrors.has(q.error) ? `the error ${q.error}` : "an error"
          return yield* new OAuthAuthorizationDenied({
            detail: `The authorization server answered ${named} instead of a code; begin a new authorization.`
          })
        }
        const connection = yield* repo.connectionById(flow.connectionId).pipe(
          Effect.orDie,
          Effect.flatMap(Option.match({
            onNone: () => Effect.die(new Error("an OAuth flow without its connection")),
            onSome: Effect.succeed
          }))
        )
        const as = yield* metadataOf(connection)
        const client = tokens.clientOf(connection)
        const oauthClient: oauth.Client = { client_id: client.clientId }
        const callback = new URLSearchParams()
        for (const [k, v] of Object.entries(q)) if (typeof v === "string") callback.set(k, v)
        const params = yield* Effect.try({
          try: () => oauth.validateAuthResponse(as, oauthClient, callback, q.state),
          catch: () =>
            new OAuthAuthorizationDenied({
              detail: "The authorization response failed validation (RFC 6749 §4.1.2: a code; RFC 9207: the issuer)."
            })
        })
        const resource = connection.resource ?? canonicalResource(connection.serverUrl)
        const response = yield* Effect.tryPromise(async () => {
          const answer = await oauth.authorizationCodeGrantRequest(
            as,
            oauthClient,
            clientAuthentication(client),
            params,
            flow.redirectUri,
            flow.codeVerifier,
            { additionalParameters: { resource }, ...oauthOptions(outbound, as.token_endpoint ?? as.issuer) }
          )
          return await oauth.processAuthorizationCodeResponse(as, oauthClient, answer)
        }).pipe(Effect.mapError((e) =>
          outboundFailureOf(e.error) !== undefined
            ? new AuthorizationServerUnavailable({
              detail: `The authorization server's token endpoint could not be reached: ${reasonOf(e.error)}.`
            })
            : new OAuthGrantRefused({ detail: `The token endpoint refused the code: ${reasonOf(e.error)}.` })
        ))
        const stored = yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* tokens.store({
            connectionId: connection.id,
            accountId: input.accountId,
            response,
            fallbackScopes: flow.scopes
          })
          yield* repo.setConnectionState(connection.id, "CONNECTED", at)
          // the catalog is fetched again with the new token (in this transaction: no fetch for a rolled-back callback)
          yield* startCatalogRefresh(connection.id, "requested", flow.id).pipe(
            Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
          )
          return row
        })).pipe(Effect.orDie)
        return {
          entityPublicId: connection.agentId,
          connectionPublicId: connection.id,
          connectionState: connection.state === "DISABLED" ? "DISABLED" : "CONNECTED",
          scopes: stored.scopes,
          accessTokenExpiresAt: stored.expiresAt
        } satisfies McpOAuthCompletion
      })

    return { beginOAuth, completeOAuth } as const
  }),
  dependencies: [McpOAuthRepo.Default, McpRepo.Default, AgentOperators.Default, McpTokens.Default]
}) {}
