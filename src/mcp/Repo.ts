/** SQL of the MCP area: an agent's connections, their last observed catalogs and OAuth flows. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { McpCatalog } from "./Schemas.js"

/** A connection as the MCP rules see it; the `oauth*` fields are null when no OAuth metadata is configured. */
export const Connection = Schema.Struct({
  id: Schema.String,
  state: Schema.Literal("PENDING", "CONNECTED", "AUTH_REQUIRED", "UNREACHABLE", "DISABLED"),
  authorizationEndpoint: Schema.NullOr(Schema.String),
  clientId: Schema.NullOr(Schema.String),
  redirectUri: Schema.NullOr(Schema.String)
})
export type Connection = typeof Connection.Type

/** A stored catalog: the wire catalog (spec §2.16) without its digest, which is computed from it. */
export const StoredCatalog = McpCatalog.pipe(Schema.omit("digest"))
export type StoredCatalog = typeof StoredCatalog.Type

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The agent's connection `connectionId`, or none (absent, or another agent's). */
  const connection = SqlSchema.findOne({
    Request: Schema.Struct({ entityPublicId: Schema.String, connectionId: Schema.String }),
    Result: Connection,
    execute: ({ entityPublicId, connectionId }) =>
      sql`SELECT id, state, oauth_authorization_endpoint AS "authorizationEndpoint", oauth_client_id AS "clientId",
            oauth_redirect_uri AS "redirectUri"
          FROM mcp_connections WHERE id = ${connectionId} AND agent_id = ${entityPublicId}`
  })

  /** The connection's last observed catalog, or none. */
  const catalog = SqlSchema.findOne({
    Request: Schema.String,
    Result: StoredCatalog,
    execute: (connectionId) =>
      sql`SELECT connection_id AS "connectionPublicId", protocol_version AS "protocolVersion",
            server_identity AS "serverIdentity", capabilities, tools, resources, resource_templates AS "resourceTemplates",
            prompts, cache_metadata AS "cacheMetadata", api_ts(observed_at) AS "observedAt", api_ts(expires_at) AS "expiresAt"
          FROM mcp_catalogs WHERE connection_id = ${connectionId}`
  })

  /** Records an OAuth flow in progress (its verifier and state, until `expiresAt`). */
  const insertFlow = (flow: {
    readonly id: string
    readonly connectionId: string
    readonly accountId: string
    readonly state: string
    readonly codeVerifier: string
    readonly scopes: ReadonlyArray<string>
    readonly redirectUri: string
    readonly createdAt: Date
    readonly expiresAt: Date
  }) =>
    sql`INSERT INTO mcp_oauth_flows (id, connection_id, account_id, state, code_verifier, scopes, redirect_uri, created_at, expires_at)
        VALUES (${flow.id}, ${flow.connectionId}, ${flow.accountId}, ${flow.state}, ${flow.codeVerifier},
                ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(flow.scopes)}::jsonb)), ${flow.redirectUri},
                ${flow.createdAt}, ${flow.expiresAt})`.pipe(Effect.asVoid)

  /**
   * Deletes the OAuth flows expired at `at` (`expires_at` <= `at`), verifier and state
   * with them: an expired flow can never be completed. Returns how many went; a second
   * call at the same time deletes nothing.
   */
  const deleteExpiredFlows = (at: Date) =>
    sql<{ id: string }>`DELETE FROM mcp_oauth_flows WHERE expires_at <= ${at} RETURNING id`.pipe(
      Effect.map((rows) => rows.length)
    )

  return { connection, catalog, insertFlow, deleteExpiredFlows } as const
})

/** SQL of the MCP area. */
export class McpRepo extends Effect.Service<McpRepo>()("agent-directory/McpRepo", { effect: make }) {}
