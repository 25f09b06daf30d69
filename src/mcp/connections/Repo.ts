/**
 * SQL of MCP connections and of what a catalog fetch records: the connection's state,
 * its catalog (`mcp_catalogs`, one per connection) and the agent's runtime tools from it
 * (`runtime_tools` with `source_kind` MCP_SERVER, `source_reference` the connection id).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { McpConnection } from "../Schemas.js"
import { catalogDigest } from "../catalog/Digest.js"
import type { McpTransport } from "../Client.js"

/** A connection row with its catalog's content, when one was observed. */
interface ConnectionRow {
  readonly id: string
  readonly entityPublicId: string
  readonly name: string
  readonly serverUrl: string
  readonly transport: McpTransport
  readonly state: McpConnection["state"]
  readonly lastFailure: string | null
  readonly lastAttemptedAt: Date | null
  readonly version: string | number
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly protocolVersion: string | null
  readonly serverIdentity: unknown
  readonly capabilities: unknown
  readonly tools: unknown
  readonly resources: unknown
  readonly resourceTemplates: unknown
  readonly prompts: unknown
  readonly observedAt: Date | null
  readonly expiresAt: Date | null
}

const count = (v: unknown) => (Array.isArray(v) ? v.length : 0)

/** The wire connection of `row`, its catalog stale when `expiresAt` <= `at`. */
const toConnection = (row: ConnectionRow, at: Date): McpConnection => ({
  id: row.id,
  entityPublicId: row.entityPublicId,
  name: row.name,
  serverUrl: row.serverUrl,
  transport: row.transport,
  state: row.state,
  lastFailure: row.lastFailure,
  lastAttemptedAt: row.lastAttemptedAt,
  catalog: row.protocolVersion === null || row.observedAt === null ? null : {
    digest: catalogDigest({ ...row, protocolVersion: row.protocolVersion }),
    protocolVersion: row.protocolVersion,
    toolCount: count(row.tools),
    resourceCount: count(row.resources),
    resourceTemplateCount: count(row.resourceTemplates),
    promptCount: count(row.prompts),
    observedAt: row.observedAt,
    expiresAt: row.expiresAt,
    stale: row.expiresAt !== null && row.expiresAt.getTime() <= at.getTime()
  },
  version: Number(row.version),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt
})

/** What a catalog fetch needs of its connection. */
export interface RefreshTarget {
  readonly id: string
  readonly agentId: string
  readonly name: string
  readonly serverUrl: string
  readonly transport: McpTransport
  readonly state: McpConnection["state"]
}

/** One MCP tool as the runtime keeps it (the latest version per name of a connection). */
export interface StoredMcpTool {
  readonly id: string
  readonly stableName: string
  readonly version: number
  readonly available: boolean
  readonly definitionDigest: string | null
}

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const select = sql`SELECT c.id, c.agent_id AS "entityPublicId", c.name, c.server_url AS "serverUrl", c.transport, c.state,
      c.last_failure AS "lastFailure", c.last_attempted_at AS "lastAttemptedAt", c.version, c.created_at AS "createdAt",
      c.updated_at AS "updatedAt", k.protocol_version AS "protocolVersion", k.server_identity AS "serverIdentity",
      k.capabilities, k.tools, k.resources, k.resource_templates AS "resourceTemplates", k.prompts,
      k.observed_at AS "observedAt", k.expires_at AS "expiresAt"
    FROM mcp_connections c LEFT JOIN mcp_catalogs k ON k.connection_id = c.id`

  /** The agent's connection `connectionId` as of `at`, or none (absent or another agent's). */
  const find = (input: { readonly entityPublicId: string; readonly connectionId: string; readonly at: Date }) =>
    sql<ConnectionRow>`${select} WHERE c.id = ${input.connectionId} AND c.agent_id = ${input.entityPublicId}`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => toConnection(row, input.at)))
    )

  /** The agent's connections as of `at`, oldest first. */
  const list = (input: { readonly entityPublicId: string; readonly at: Date }) =>
    sql<ConnectionRow>`${select} WHERE c.agent_id = ${input.entityPublicId} ORDER BY c.created_at, c.id`.pipe(
      Effect.map((rows) => rows.map((row) => toConnection(row, input.at)))
    )

  /** The id of the agent's connection to `serverUrl`, if it has one. */
  const findByServerUrl = (agentId: string, serverUrl: string) =>
    sql<{ id: string }>`SELECT id FROM mcp_connections WHERE agent_id = ${agentId} AND server_url = ${serverUrl}`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r) => r.id))
    )

  /** Adds a PENDING connection; false when the agent already has one to `serverUrl`. */
  const insert = (c: {
    readonly id: string
    readonly agentId: string
    readonly name: string
    readonly serverUrl: string
    readonly transport: McpTransport
    readonly at: Date
  }) =>
    sql<{ id: string }>`INSERT INTO mcp_connections (id, agent_id, name, server_url, state, transport, version, created_at, updated_at)
        VALUES (${c.id}, ${c.agentId}, ${c.name}, ${c.serverUrl}, 'PENDING', ${c.transport}, 1, ${c.at}, ${c.at})
        ON CONFLICT (agent_id, server_url) DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length === 1))

  /** The connection's fetch target, or none. */
  const refreshTarget = (connectionId: string) =>
    sql<RefreshTarget>`SELECT id, agent_id AS "agentId", name, server_url AS "serverUrl", transport, state
        FROM mcp_connections WHERE id = ${connectionId}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])))

  /**
   * Records a successful fetch: the catalog replaces the last one (observed `at`, expiring
   * at `expiresAt`), and the connection is CONNECTED (version + 1 when that changes it).
   */
  const recordCatalog = (input: {
    readonly connectionId: string
    readonly protocolVersion: string
    readonly serverIdentity: unknown
    readonly capabilities: unknown
    readonly tools: unknown
    readonly resources: unknown
    readonly resourceTemplates: unknown
    readonly prompts: unknown
    readonly cacheMetadata: unknown
    readonly at: Date
    readonly expiresAt: Date
  }) =>
    Effect.gen(function*() {
      const json = (v: unknown) => JSON.stringify(v)
      yield* sql`INSERT INTO mcp_catalogs (connection_id, protocol_version, server_identity, capabilities, tools, resources,
            resource_templates, prompts, cache_metadata, observed_at, expires_at)
          VALUES (${input.connectionId}, ${input.protocolVersion}, ${json(input.serverIdentity)}::jsonb,
            ${json(input.capabilities)}::jsonb, ${json(input.tools)}::jsonb, ${json(input.resources)}::jsonb,
            ${json(input.resourceTemplates)}::jsonb, ${json(input.prompts)}::jsonb, ${json(input.cacheMetadata)}::jsonb,
            ${input.at}, ${input.expiresAt})
          ON CONFLICT (connection_id) DO UPDATE SET protocol_version = EXCLUDED.protocol_version,
            server_identity = EXCLUDED.server_identity, capabilities = EXCLUDED.capabilities, tools = EXCLUDED.tools,
            resources = EXCLUDED.resources, resource_templates = EXCLUDED.resource_templates, prompts = EXCLUDED.prompts,
            cache_metadata = EXCLUDED.cache_metadata, observed_at = EXCLUDED.observed_at, expires_at = EXCLUDED.expires_at`
      yield* sql`UPDATE mcp_connections SET state = 'CONNECTED', last_failure = NULL, last_attempted_at = ${input.at},
            updated_at = ${input.at}, version = version + CASE WHEN state = 'CONNECTED' THEN 0 ELSE 1 END
          WHERE id = ${input.connectionId} AND state <> 'DISABLED'`
    })

  /**
   * Records a failed fetch: AUTH_REQUIRED (with the challenge's resource metadata URL) for
   * `auth-required`, UNREACHABLE otherwise; the last catalog stays (and grows stale).
   */
  const recordFailure = (input: {
    readonly connectionId: string
    readonly code: string
    readonly resourceMetadataUrl: Option.Option<string>
    readonly at: Date
  }) => {
    const state = input.code === "auth-required" ? "AUTH_REQUIRED" : "UNREACHABLE"
    return sql`UPDATE mcp_connections SET state = ${state}, last_failure = ${input.code}, last_attempted_at = ${input.at},
          oauth_resource_metadata_url = COALESCE(${Option.getOrNull(input.resourceMetadataUrl)}, oauth_resource_metadata_url),
          updated_at = ${input.at}, version = version + CASE WHEN state = ${state} THEN 0 ELSE 1 END
        WHERE id = ${input.connectionId} AND state <> 'DISABLED'`.pipe(Effect.asVoid)
  }

  /**
   * Connections whose catalog should be fetched now: CONNECTED ones whose catalog expires
   * before `horizon` (or was never observed), UNREACHABLE ones last tried before
   * `retryBefore`, and PENDING ones created before `retryBefore` (their first fetch was
   * lost). AUTH_REQUIRED waits for an authorization, DISABLED for nothing.
   */
  const dueForRefresh = (input: { readonly horizon: Date; readonly retryBefore: Date }) =>
    sql<{ id: string }>`SELECT c.id FROM mcp_connections c LEFT JOIN mcp_catalogs k ON k.connection_id = c.id
        WHERE (c.state = 'CONNECTED' AND (k.expires_at IS NULL OR k.expires_at <= ${input.horizon}))
           OR (c.state = 'UNREACHABLE' AND (c.last_attempted_at IS NULL OR c.last_attempted_at <= ${input.retryBefore}))
           OR (c.state = 'PENDING' AND c.created_at <= ${input.retryBefore})
        ORDER BY c.id`.pipe(Effect.map((rows) => rows.map((r) => r.id)))

  /** The latest version of each MCP tool of the connection. */
  const latestTools = (agentId: string, connectionId: string) =>
    sql<StoredMcpTool>`SELECT DISTINCT ON (stable_name) id, stable_name AS "stableName", version, available,
          definition_digest AS "definitionDigest"
        FROM runtime_tools WHERE agent_id = ${agentId} AND source_kind = 'MCP_SERVER' AND source_reference = ${connectionId}
        ORDER BY stable_name, version DESC`

  /**
   * Adds one version of an MCP tool, available, with the grant the agent's runtime
   * configuration gives its `stableName` (`agent_runtime_configs.tool_grants`; null when none).
   */
  const insertTool = (t: {
    readonly id: string
    readonly agentId: string
    readonly connectionId: string
    readonly stableName: string
    readonly version: number
    readonly description: string
    readonly inputSchema: unknown
    readonly outputSchema: unknown
    readonly riskClass: string
    readonly executionClass: string
    readonly implementationVersion: string
    readonly definitionDigest: string
    readonly remoteDefinition: unknown
    readonly at: Date
  }) =>
    sql`INSERT INTO runtime_tools (id, agent_id, stable_name, version, description, input_schema, output_schema, risk_class,
          executor_kind, execution_class, source_kind, source_reference, implementation_version, available, unavailable_at,
          state, grant_state, definition_digest, remote_definition, created_at)
        VALUES (${t.id}, ${t.agentId}, ${t.stableName}, ${t.version}, ${t.description}, ${JSON.stringify(t.inputSchema)}::jsonb,
          ${t.outputSchema === null ? null : JSON.stringify(t.outputSchema)}::jsonb, ${t.riskClass}, 'MCP',
          ${t.executionClass}, 'MCP_SERVER', ${t.connectionId}, ${t.implementationVersion}, true, NULL, 'ACTIVE',
          (SELECT c.tool_grants ->> ${t.stableName} FROM agent_runtime_configs c WHERE c.agent_id = ${t.agentId}),
          ${t.definitionDigest}, ${JSON.stringify(t.remoteDefinition)}::jsonb, ${t.at})`.pipe(Effect.asVoid)

  /** Makes a tool version unavailable at `at` with `state` (REMOVED: gone from the catalog; SUPERSEDED: a new version). */
  const retireTool = (id: string, state: "REMOVED" | "SUPERSEDED", at: Date) =>
    sql`UPDATE runtime_tools SET available = false, unavailable_at = ${at}, state = ${state}
        WHERE id = ${id} AND available`.pipe(Effect.asVoid)

  /** Makes a tool version that came back to the catalog unchanged available again. */
  const restoreTool = (id: string) =>
    sql`UPDATE runtime_tools SET available = true, unavailable_at = NULL, state = 'ACTIVE' WHERE id = ${id}`.pipe(Effect.asVoid)

  return {
    find,
    list,
    findByServerUrl,
    insert,
    refreshTarget,
    recordCatalog,
    recordFailure,
    dueForRefresh,
    latestTools,
    insertTool,
    retireTool,
    restoreTool
  } as const
})

/** SQL of MCP connections and their catalog fetches. */
export class McpConnectionsRepo extends Effect.Service<McpConnectionsRepo>()("agent-directory/McpConnectionsRepo", {
  effect: make
}) {}
