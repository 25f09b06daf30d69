/**
 * An MCP connection's OAuth tokens (MCP authorization, revision 2025-06-18, §"Token
 * Handling"): stored sealed at rest (AES-256-GCM, layers/TokenCipher.ts, each value
 * bound to its connection and column), handed out as `Redacted` values, and refreshed
 * with the refresh token (RFC 6749 §6, with the RFC 8707 `resource`) shortly before they
 * expire. A token never reaches a response, a log line or a problem.
 */
import { SqlClient } from "@effect/sql"
import { Data, Effect, Layer, Option, Redacted } from "effect"
import * as oauth from "oauth4webapi"
import { McpSettings } from "../Config.js"
import { now } from "../../../layers/Clock.js"
import { Outbound, outboundFailureOf } from "../../../layers/Outbound.js"
import { makeTokenCipher } from "../../../layers/TokenCipher.js"
import { McpAccessToken } from "./AccessToken.js"
import { clientAuthentication } from "./Client.js"
import { MetadataUrlRule, oauthOptions, reasonOf, refusedAuthorizationServerField } from "./Discovery.js"
import { type OAuthConnection, McpOAuthRepo } from "./Repo.js"

/** A token is refreshed when it expires within this long: 60 s (covers clock skew and the request's own time). */
export const RefreshAheadMs = 60_000

/**
 * No usable access token: `reason` `unauthorized` (never authorized, or the refresh was
 * refused: the connection is AUTH_REQUIRED again), `unreachable` (the authorization
 * server could not be reached; the stored tokens stay).
 */
export class AccessTokenUnavailable extends Data.TaggedError("AccessTokenUnavailable")<{
  readonly reason: "unauthorized" | "unreachable"
  readonly rule: string
}> {}

/** Where a sealed value of a connection is stored: its additional authenticated data. */
const aad = (column: "access_token" | "refresh_token" | "client_secret", connectionId: string) =>
  `mcp:${column}:${connectionId}`

/** The authorization server metadata and client of a connection whose discovery was cached. */
export const authorizationServerOf = (c: OAuthConnection): oauth.AuthorizationServer | undefined =>
  c.asMetadata === null ? undefined : (c.asMetadata as unknown as oauth.AuthorizationServer)

/** MCP connections' tokens. Requires `SqlClient`, `McpSettings`, `Outbound`. */
export class McpTokens extends Effect.Service<McpTokens>()("agent-directory/McpTokens", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* McpOAuthRepo
    const config = yield* McpSettings
    const outbound = yield* Outbound
    const cipher = makeTokenCipher(config.mcpOAuth.tokenKeys)

    /** Seals a registered client's secret for `connectionId`. */
    const sealClientSecret = (connectionId: string, secret: Redacted.Redacted<string>) =>
      cipher.seal(secret, aad("client_secret", connectionId))

    /** The client of a connection: id, secret (configured, or opened from the row) and how it authenticates. */
    const clientOf = (c: OAuthConnection) => {
      const configured = c.issuer === null ? undefined : config.mcpOAuth.clients[c.issuer]
      if (c.clientSource === "CONFIGURED" && configured !== undefined) return configured
      const tokenEndpointAuthMethod = c.clientAuthMethod ?? (c.clientSecret === null ? "none" : "client_secret_basic")
      return {
        clientId: c.clientId ?? "",
        clientSecret: c.clientSecret === null ? undefined : cipher.open(c.clientSecret, aad("client_secret", c.id)),
        tokenEndpointAuthMethod
      }
    }

    /**
     * Stores the tokens of a token endpoint response for `connectionId` (authorized by
     * `accountId`), sealed. `fallbackScopes` are recorded when the response names none.
     */
    const store = (input: {
      readonly connectionId: string
      readonly accountId: string
      readonly response: oauth.TokenEndpointResponse
      readonly fallbackScopes: ReadonlyArray<string>
      readonly previousRefreshToken?: string | null
    }) =>
      Effect.gen(function*() {
        const at = yield* now
        const r = input.response
        const accessToken = cipher.seal(Redacted.make(r.access_token), aad("access_token", input.connectionId))
        // RFC 6749 §6: a refresh answer without a new refresh token keeps the old one
        const refreshToken = r.refresh_token !== undefined
          ? cipher.seal(Redacted.make(r.refresh_token), aad("refresh_token", input.connectionId))
          : input.previousRefreshToken ?? null
        const row = {
          connectionId: input.connectionId,
          accessToken,
          refreshToken,
          tokenType: r.token_type,
          scopes: typeof r.scope === "string" && r.scope !== "" ? r.scope.split(" ") : input.fallbackScopes,
          expiresAt: typeof r.expires_in === "number" ? new Date(at.getTime() + r.expires_in * 1000) : null,
          at
        }
        if (input.previousRefreshToken !== undefined) yield* repo.refreshedTokens(row)
        else yield* repo.saveTokens({ ...row, accountId: input.accountId })
        return row
      })

    /** One refresh under the token row's lock; the outcome, so a refusal can be recorded after the rollback-free commit. */
    const refreshLocked = (connectionId: string) =>
      sql.withTransaction(Effect.gen(function*() {
        const locked = yield* repo.tokens(connectionId, true)
        if (Option.isNone(locked)) {
          return { _tag: "Refused", rule: "the connection has no OAuth tokens: authorize it (MCP_BeginMcpOAuth)" } as const
        }
        const t = locked.value
        const at = yield* now
        // another caller refreshed while this one waited for the lock
        if (t.expiresAt === null || t.expiresAt.getTime() - at.getTime() > RefreshAheadMs) {
          return { _tag: "Token", token: cipher.open(t.accessToken, aad("access_token", connectionId)) } as const
        }
        if (t.refreshToken === null) {
          return { _tag: "Refused", rule: "the access token expired and the server gave no refresh token" } as const
        }
        const connection = yield* repo.connectionById(connectionId)
        const as = Option.flatMap(connection, (c) => Option.fromNullable(authorizationServerOf(c)))
        if (Option.isNone(connection) || Option.isNone(as)) {
          return { _tag: "Refused", rule: "the connection's authorization server metadata is gone" } as const
        }
        const refusedField = refusedAuthorizationServerField(outbound, as.value)
        if (refusedField !== undefined) {
          return { _tag: "Refused", rule: `the authorization server metadata's ${refusedField} ${MetadataUrlRule}` } as const
        }
        const client = clientOf(connection.value)
        const refreshToken = cipher.open(t.refreshToken, aad("refresh_token", connectionId))
        const resource = connection.value.resource
        const answer = yield* Effect.tryPromise(async () => {
          const response = await oauth.refreshTokenGrantRequest(
            as.value,
            { client_id: client.clientId },
            clientAuthentication(client),
            Redacted.value(refreshToken),
            {
              ...oauthOptions(outbound, as.value.token_endpoint!),
              ...(resource === null ? {} : { additionalParameters: { resource } })
            }
          )
          return await oauth.processRefreshTokenResponse(as.value, { client_id: client.clientId }, response)
        }).pipe(Effect.either)
        if (answer._tag === "Left") {
          const cause = answer.left.error
          return outboundFailureOf(cause) !== undefined
            ? { _tag: "Unreachable", rule: reasonOf(cause) } as const
            : { _tag: "Refused", rule: `the refresh was refused: ${reasonOf(cause)}` } as const
        }
        yield* store({
          connectionId,
          accountId: "",
          response: answer.right,
          fallbackScopes: t.scopes,
          previousRefreshToken: t.refreshToken
        })
        return { _tag: "Token", token: Redacted.make(answer.right.access_token) } as const
      }))

    /**
     * The connection's current access token (`Redacted`), refreshed first when it
     * expires within {@link RefreshAheadMs} (one refresh at a time per connection: the
     * token row is locked while refreshing, and a caller that waited reuses the new
     * token). A refused refresh forgets the tokens and makes the connection
     * AUTH_REQUIRED. Fails with {@link AccessTokenUnavailable}; SQL failures are defects.
     */
    const accessToken = (connectionId: string): Effect.Effect<Redacted.Redacted<string>, AccessTokenUnavailable> =>
      Effect.gen(function*() {
        const stored = yield* repo.tokens(connectionId)
        const at = yield* now
        if (Option.isSome(stored)) {
          const t = stored.value
          if (t.expiresAt === null || t.expiresAt.getTime() - at.getTime() > RefreshAheadMs) {
            return cipher.open(t.accessToken, aad("access_token", connectionId))
          }
        }
        const outcome = yield* refreshLocked(connectionId)
        switch (outcome._tag) {
          case "Token":
            return outcome.token
          case "Unreachable":
            return yield* new AccessTokenUnavailable({ reason: "unreachable", rule: outcome.rule })
          case "Refused": {
            yield* sql.withTransaction(Effect.gen(function*() {
              const when = yield* now
              yield* repo.deleteTokens(connectionId)
              yield* repo.setConnectionState(connectionId, "AUTH_REQUIRED", when)
            }))
            return yield* new AccessTokenUnavailable({ reason: "unauthorized", rule: outcome.rule })
          }
        }
      }).pipe(Effect.catchTags({ SqlError: Effect.die, ParseError: Effect.die }), Effect.withSpan("McpTokens.accessToken"))

    return { store, accessToken, clientOf, sealClientSecret } as const
  }),
  dependencies: [McpOAuthRepo.Default]
}) {}

/**
 * {@link McpAccessToken} from the stored OAuth tokens, for the catalog fetch and a run's
 * tool calls: a connection with none fetches without a token (an open server; a
 * protected one answers 401 and the connection becomes AUTH_REQUIRED); one with tokens
 * gets its current access token, refreshed if due. A refresh the server refused has
 * already made the connection AUTH_REQUIRED ({@link McpTokens}); an unreachable
 * authorization server fetches without a token.
 * Requires `SqlClient`, `McpSettings`, `Outbound`.
 */
export const McpAccessTokenLive = Layer.effect(
  McpAccessToken,
  Effect.gen(function*() {
    const tokens = yield* McpTokens
    const repo = yield* McpOAuthRepo
    return {
      accessToken: (connectionId: string) =>
        repo.tokens(connectionId).pipe(
          Effect.orDie,
          Effect.flatMap(Option.match({
            onNone: () => Effect.succeed(Option.none<Redacted.Redacted<string>>()),
            onSome: () =>
              tokens.accessToken(connectionId).pipe(
                Effect.map(Option.some),
                Effect.catchTag("AccessTokenUnavailable", () => Effect.succeed(Option.none<Redacted.Redacted<string>>()))
              )
          }))
        )
    }
  })
).pipe(Layer.provide([McpTokens.Default, McpOAuthRepo.Default]))
