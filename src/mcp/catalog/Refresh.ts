/**
 * Fetching an MCP connection's catalog on the durable engine (`layers/Engine.ts`): the
 * `McpCatalogRefresh` workflow fetches the server's catalog (`../Client.ts`, through the
 * guarded outbound client, with the connection's bearer token when `McpAccessToken`
 * (`McpAccessTokenLive`: the stored OAuth tokens) holds one) and records the outcome in
 * one transaction:
 *
 * - success: the catalog replaces the last one (`observedAt` now, `expiresAt` now +
 *   `MCP_CATALOG_TTL_SECONDS`), the connection is CONNECTED and its tools become the
 *   agent's runtime tools (`../RuntimeTools.ts`), and the connection's tool-safety findings are
 *   recomputed (`../findings/Findings.ts`);
 * - 401: AUTH_REQUIRED, with the challenge's `resource_metadata` URL kept for OAuth;
 * - anything else: UNREACHABLE with the failure code; the last catalog stays, and is
 *   answered as stale once past its `expiresAt`; an answer that is not MCP's (`protocol-error`,
 *   404, 405, 406, 415) is also an ENDPOINT_NOT_MCP finding.
 *
 * Who starts it: MCP_CreateMcpConnection and MCP_RefreshMcpCatalog (in their
 * transaction), MCP_GetMcpCatalog for a catalog past `expiresAt` (once per expiry), and
 * the `McpCatalogRefreshDue` cron (every 5 minutes UTC) for catalogs expiring within 10
 * minutes, UNREACHABLE connections last tried 15 minutes ago or more, and PENDING ones
 * whose first fetch was lost. The execution id is (connection, reason, instant), so the
 * same request asked twice is one fetch.
 */
import { ClusterCron } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Activity, Workflow } from "@effect/workflow"
import { Cron, Effect, Either, Layer, Option, Schema } from "effect"
import { McpSettings } from "../Config.js"
import { now } from "../../../layers/Clock.js"
import { retryTransient, survivingStorageErrors } from "../../../layers/Engine.js"
import { Outbound } from "../../../layers/Outbound.js"
import { McpAccessToken } from "../oauth/AccessToken.js"
import { McpAccessTokenLive } from "../oauth/Tokens.js"
import { fetchCatalog } from "../Client.js"
import { McpConnectionsRepo } from "../connections/Repo.js"
import { syncRuntimeTools, toolPrefix } from "../RuntimeTools.js"
import { recordCatalogFindings, recordEndpointNotMcp } from "../findings/Findings.js"
import { NotMcpCodes } from "../findings/Heuristics.js"

/**
 * Fetches connection `connectionId`'s catalog. `reason`: `created`, `requested`,
 * `expired` or `scheduled`; `occasion` tells apart the fetches of one reason: a fresh
 * id for `created` and `requested`, the catalog's `expiresAt` for `expired` (one fetch
 * per expiry however many reads see it), the cron's instant for `scheduled`.
 */
export const McpCatalogRefresh = Workflow.make({
  name: "McpCatalogRefresh",
  payload: { connectionId: Schema.String, reason: Schema.String, occasion: Schema.String },
  idempotencyKey: ({ connectionId, occasion, reason }) => `${connectionId}@${reason}@${occasion}`
})

/**
 * Starts a fetch of `connectionId`'s catalog (see {@link McpCatalogRefresh}); inside a
 * request, call it in the request's transaction. Requires the `WorkflowEngine`.
 */
export const startCatalogRefresh = (
  connectionId: string,
  reason: "created" | "requested" | "expired" | "scheduled",
  occasion: string
) => McpCatalogRefresh.execute({ connectionId, reason, occasion }, { discard: true })

/**
 * One fetch and its recording. Requires `SqlClient`, `Ids`, `McpSettings`, `Outbound`,
 * `McpConnectionsRepo`, `McpAccessToken`.
 */
export const refreshCatalog = (connectionId: string) =>
  Effect.gen(function*() {
    const repo = yield* McpConnectionsRepo
    const sql = yield* SqlClient.SqlClient
    const target = yield* repo.refreshTarget(connectionId).pipe(retryTransient)
    if (Option.isNone(target) || target.value.state === "DISABLED") return
    const { agentId, name, serverUrl, transport } = target.value
    const config = yield* McpSettings
    const outbound = yield* Outbound
    const tokens = yield* McpAccessToken
    const accessToken = yield* tokens.accessToken(connectionId)
    const outcome = yield* Effect.either(fetchCatalog({
      serverUrl,
      transport,
      accessToken,
      fetch: outbound.fetch,
      timeoutMs: config.mcpCatalog.requestTimeoutMs
    }))
    const at = yield* now
    yield* sql.withTransaction(Either.match(outcome, {
      onLeft: (failure) =>
        Effect.zipRight(
          repo.recordFailure({ connectionId, code: failure.code, resourceMetadataUrl: failure.resourceMetadataUrl, at }),
          NotMcpCodes.has(failure.code)
            ? recordEndpointNotMcp({ agentId, connectionId, url: serverUrl, code: failure.code, at })
            : Effect.void
        ),
      onRight: (catalog) =>
        Effect.gen(function*() {
          const ttlSeconds = config.mcpCatalog.ttlSeconds
          yield* repo.recordCatalog({
            connectionId,
            protocolVersion: catalog.protocolVersion,
            serverIdentity: catalog.serverIdentity,
            capabilities: catalog.capabilities,
            tools: catalog.tools,
            resources: catalog.resources,
            resourceTemplates: catalog.resourceTemplates,
            prompts: catalog.prompts,
            // how this observation was made; the digest leaves it out
            cacheMetadata: { transport: catalog.transport, ttlSeconds, pages: catalog.pages },
            at,
            expiresAt: new Date(at.getTime() + ttlSeconds * 1000)
          })
          const version = (catalog.serverIdentity as { readonly version?: unknown }).version
          yield* syncRuntimeTools({
            agentId,
            connectionId,
            connectionName: name,
            implementationVersion: typeof version === "string" && version !== "" ? version : catalog.protocolVersion,
            tools: Array.isArray(catalog.tools) ? catalog.tools : [],
            at
          })
          yield* recordCatalogFindings({
            agentId,
            connectionId,
            serverUrl,
            toolPrefix: toolPrefix(name),
            tools: Array.isArray(catalog.tools) ? catalog.tools : [],
            at
          })
        })
    })).pipe(retryTransient)
  }).pipe(Effect.orDie)

/** The workflow's implementation. */
const McpCatalogRefreshLive = McpCatalogRefresh.toLayer(({ connectionId }) =>
  Activity.make({ name: "fetch", execute: refreshCatalog(connectionId) }).pipe(survivingStorageErrors))

/** How far ahead of `expiresAt` the cron refreshes a catalog. */
const RefreshAheadMs = 10 * 60_000
/** How long an UNREACHABLE (or stuck PENDING) connection waits before the cron tries it again. */
const RetryAfterMs = 15 * 60_000

/** Every 5 minutes (UTC): start the fetches that are due (see the module's description). */
const McpCatalogRefreshDue = ClusterCron.make({
  name: "McpCatalogRefreshDue",
  cron: Cron.unsafeParse("*/5 * * * *", "UTC"),
  // a late check still runs (it starts what is due then)
  skipIfOlderThan: "3650 days",
  execute: Effect.gen(function*() {
    const repo = yield* McpConnectionsRepo
    const at = yield* now
    const due = yield* repo.dueForRefresh({
      horizon: new Date(at.getTime() + RefreshAheadMs),
      retryBefore: new Date(at.getTime() - RetryAfterMs)
    })
    yield* Effect.forEach(due, (id) => startCatalogRefresh(id, "scheduled", at.toISOString()), { discard: true })
  })
})

/** The catalog fetch workflow and its cron (need the engine, `SqlClient`, `Ids`, `McpSettings`, `Outbound`). */
export const McpCatalogRefreshWorkflows = Layer.mergeAll(McpCatalogRefreshLive, McpCatalogRefreshDue).pipe(
  Layer.provide([McpConnectionsRepo.Default, McpAccessTokenLive])
)
