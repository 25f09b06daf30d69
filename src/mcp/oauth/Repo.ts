/**
 * SQL of MCP OAuth: a connection's OAuth columns (discovery cache, migration 0019), the
 * flows in progress (`mcp_oauth_flows`) and the sealed tokens (`mcp_oauth_tokens`).
 * Tokens and client secrets arrive here already sealed (layers/TokenCipher.ts).
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"

/** A connection's OAuth settings as stored; `asMetadata` is the authorization server's metadata document. */
export const OAuthConnection = Schema.Struct({
  id: Schema.String,
  agentId: Schema.String,
  state: Schema.Literal("CONNECTED", "AUTH_REQUIRED", "DISABLED"),
  serverUrl: Schema.String,
  issuer: Schema.NullOr(Schema.String),
  authorizationEndpoint: Schema.NullOr(Schema.String),
  clientId: Schema.NullOr(Schema.String),
  resource: Schema.NullOr(Schema.String),
  resourceMetadataUrl: Schema.NullOr(Schema.String),
  resourceScopes: Schema.NullOr(Schema.Array(Schema.String)),
  asMetadata: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  clientSource: Schema.NullOr(Schema.Literal("CONFIGURED", "REGISTERED", "SEEDED")),
  clientSecret: Schema.NullOr(Schema.String),
  clientAuthMethod: Schema.NullOr(Schema.String),
  discoveredAt: Schema.NullOr(Schema.DateFromSelf)
})
export type OAuthConnection = typeof OAuthConnection.Type

/** A flow in progress with what its completion needs. */
export const OAuthFlow = Schema.Struct({
  id: Schema.String,
  connectionId: Schema.String,
  accountId: Schema.String,
  codeVerifier: Schema.String,
  scopes: Schema.Array(Schema.String),
  redirectUri: Schema.String,
  expiresAt: Schema.DateFromSelf,
  consumedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type OAuthFlow = typeof OAuthFlow.Type

/** A connection's stored (sealed) tokens. */
export const StoredTokens = Schema.Struct({
  connectionId: Schema.String,
  accessToken: Schema.String,
  refreshToken: Schema.NullOr(Schema.String),
  tokenType: Schema.String,
  scopes: Schema.Array(Schema.String),
  expiresAt: Schema.NullOr(Schema.DateFromSelf)
})
export type StoredTokens = typeof StoredTokens.Type

const connectionColumns = (sql: SqlClient.SqlClient) =>
  sql`id, agent_id AS "agentId", state, server_url AS "serverUrl", oauth_issuer AS issuer,
      oauth_authorization_endpoint AS "authorizationEndpoint", oauth_client_id AS "clientId", oauth_resource AS resource,
      oauth_resource_metadata_url AS "resourceMetadataUrl", oauth_resource_scopes AS "resourceScopes",
      oauth_as_metadata AS "asMetadata", oauth_client_source AS "clientSource", oauth_client_secret AS "clientSecret",
      oauth_client_auth_method AS "clientAuthMethod", oauth_discovered_at AS "discoveredAt"`

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The agent's connection `connectionId` with its OAuth settings, or none. */
  const connection = SqlSchema.findOne({
    Request: Schema.Struct({ entityPublicId: Schema.String, connectionId: Schema.String }),
    Result: OAuthConnection,
    execute: ({ connectionId, entityPublicId }) =>
      sql`SELECT ${connectionColumns(sql)} FROM mcp_connections WHERE id = ${connectionId} AND agent_id = ${entityPublicId}`
  })

  /** The connection `id` with its OAuth settings, or none; `lock` takes its row lock (FOR UPDATE). */
  const connectionById = (id: string, lock = false) =>
    SqlSchema.findOne({
      Request: Schema.String,
      Result: OAuthConnection,
      execute: (id) =>
        lock
          ? sql`SELECT ${connectionColumns(sql)} FROM mcp_connections WHERE id = ${id} FOR UPDATE`
          : sql`SELECT ${connectionColumns(sql)} FROM mcp_connections WHERE id = ${id}`
    })(id)

  /** Stores what discovery found and the client to use (the discovery cache). */
  const cacheDiscovery = (c: {
    readonly id: string
    readonly issuer: string
    readonly authorizationEndpoint: string
    readonly clientId: string
    readonly redirectUri: string
    readonly resource: string
    readonly resourceMetadataUrl: string
    readonly resourceScopes: ReadonlyArray<string> | undefined
    readonly asMetadata: unknown
    readonly clientSource: "CONFIGURED" | "REGISTERED"
    readonly clientSecret: string | null
    readonly clientAuthMethod: string
    readonly at: Date
  }) =>
    sql`UPDATE mcp_connections SET oauth_issuer = ${c.issuer}, oauth_authorization_endpoint = ${c.authorizationEndpoint},
          oauth_client_id = ${c.clientId}, oauth_redirect_uri = ${c.redirectUri}, oauth_resource = ${c.resource},
          oauth_resource_metadata_url = ${c.resourceMetadataUrl},
          oauth_resource_scopes = ${
      c.resourceScopes === undefined
        ? null
        : sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(c.resourceScopes)}::jsonb))`
    },
          oauth_as_metadata = ${JSON.stringify(c.asMetadata)}::jsonb, oauth_client_source = ${c.clientSource},
          oauth_client_secret = ${c.clientSecret}, oauth_client_auth_method = ${c.clientAuthMethod}, oauth_discovered_at = ${c.at}
        WHERE id = ${c.id}`.pipe(Effect.asVoid)

  /** The flow whose `state` is `state`, or none. */
  const flowByState = SqlSchema.findOne({
    Request: Schema.String,
    Result: OAuthFlow,
    execute: (state) =>
      sql`SELECT id, connection_id AS "connectionId", account_id AS "accountId", code_verifier AS "codeVerifier", scopes,
            redirect_uri AS "redirectUri", expires_at AS "expiresAt", consumed_at AS "consumedAt"
          FROM mcp_oauth_flows WHERE state = ${state}`
  })

  /** Marks the flow used, once: true when this call consumed it (false: consumed before). */
  const consumeFlow = (id: string, at: Date) =>
    sql<{ id: string }>`UPDATE mcp_oauth_flows SET consumed_at = ${at} WHERE id = ${id} AND consumed_at IS NULL RETURNING id`.pipe(
      Effect.map((rows) => rows.length === 1)
    )

  /** The connection's sealed tokens, or none; `lock` takes the token row's lock (one refresh at a time). */
  const tokens = (connectionId: string, lock = false) =>
    SqlSchema.findOne({
      Request: Schema.String,
      Result: StoredTokens,
      execute: (id) => {
        const select = sql`SELECT connection_id AS "connectionId", access_token AS "accessToken", refresh_token AS "refreshToken",
              token_type AS "tokenType", scopes, expires_at AS "expiresAt" FROM mcp_oauth_tokens WHERE connection_id = ${id}`
        return lock ? sql`${select} FOR UPDATE` : select
      }
    })(connectionId)

  /** Stores (replaces) the connection's sealed tokens. */
  const saveTokens = (t: {
    readonly connectionId: string
    readonly accountId: string
    readonly accessToken: string
    readonly refreshToken: string | null
    readonly tokenType: string
    readonly scopes: ReadonlyArray<string>
    readonly expiresAt: Date | null
    readonly at: Date
  }) =>
    sql`INSERT INTO mcp_oauth_tokens (connection_id, account_id, access_token, refresh_token, token_type, scopes, expires_at,
          obtained_at, updated_at)
        VALUES (${t.connectionId}, ${t.accountId}, ${t.accessToken}, ${t.refreshToken}, ${t.tokenType},
          ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(t.scopes)}::jsonb)), ${t.expiresAt}, ${t.at}, ${t.at})
        ON CONFLICT (connection_id) DO UPDATE SET account_id = EXCLUDED.account_id, access_token = EXCLUDED.access_token,
          refresh_token = EXCLUDED.refresh_token, token_type = EXCLUDED.token_type, scopes = EXCLUDED.scopes,
          expires_at = EXCLUDED.expires_at, obtained_at = EXCLUDED.obtained_at, updated_at = EXCLUDED.updated_at`.pipe(
      Effect.asVoid
    )

  /** Replaces the tokens after a refresh (the account that authorized stays). */
  const refreshedTokens = (t: {
    readonly connectionId: string
    readonly accessToken: string
    readonly refreshToken: string | null
    readonly tokenType: string
    readonly scopes: ReadonlyArray<string>
    readonly expiresAt: Date | null
    readonly at: Date
  }) =>
    sql`UPDATE mcp_oauth_tokens SET access_token = ${t.accessToken}, refresh_token = ${t.refreshToken},
          token_type = ${t.tokenType}, scopes = ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(t.scopes)}::jsonb)),
          expires_at = ${t.expiresAt}, updated_at = ${t.at}
        WHERE connection_id = ${t.connectionId}`.pipe(Effect.asVoid)

  /** Forgets the connection's tokens (refused refresh). */
  const deleteTokens = (connectionId: string) =>
    sql`DELETE FROM mcp_oauth_tokens WHERE connection_id = ${connectionId}`.pipe(Effect.asVoid)

  /** Moves the connection to `state` (CONNECTED after an authorization, AUTH_REQUIRED when its tokens are gone). */
  const setConnectionState = (id: string, state: "CONNECTED" | "AUTH_REQUIRED", at: Date) =>
    sql`UPDATE mcp_connections SET state = ${state}, version = version + 1, updated_at = ${at}
        WHERE id = ${id} AND state <> 'DISABLED' AND state <> ${state}`.pipe(Effect.asVoid)

  return {
    connection,
    connectionById,
    cacheDiscovery,
    flowByState,
    consumeFlow,
    tokens,
    saveTokens,
    refreshedTokens,
    deleteTokens,
    setConnectionState
  } as const
})

/** SQL of MCP OAuth. */
export class McpOAuthRepo extends Effect.Service<McpOAuthRepo>()("agent-directory/McpOAuthRepo", { effect: make }) {}
