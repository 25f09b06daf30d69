/**
 * The MCP connection operations of the MCP group, added to `McpApi`:
 * MCP_CreateMcpConnection, MCP_ListMcpConnections, MCP_GetMcpConnection and
 * MCP_RefreshMcpCatalog.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { AgentNotFound, InvalidState, OutboundTargetRefused, RoleRequired } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { agentVisibility } from "../../agentAccess/AgentVisibilityApi.js"
import { CreateMcpConnectionRequest, McpCatalogRefresh, McpConnection, RefreshMcpCatalogRequest } from "../Schemas.js"
import { ConnectionExists, ConnectionNotFound } from "../Errors.js"

const AgentPath = Schema.Struct({ entityPublicId: Uuid })
const ConnectionPath = Schema.Struct({ entityPublicId: Uuid, connectionPublicId: Uuid })

const connectionShape = "A connection: `id`, `entityPublicId`, `name`, `serverUrl`, `transport`, `state` (PENDING: " +
  "created, its catalog not yet fetched; CONNECTED: the last fetch succeeded; AUTH_REQUIRED: the server answered 401, " +
  "authorize with MCP_BeginMcpOAuth; UNREACHABLE: the last fetch failed otherwise; DISABLED), `lastFailure` (null, or " +
  "why the last fetch failed: `auth-required`, `target-refused`, `response-too-large`, `timeout`, `network-error`, " +
  "`http-<status>`, `protocol-error`), `lastAttemptedAt`, `catalog` (null until one is observed, else its `digest`, " +
  "`protocolVersion`, counts of tools, resources, resource templates and prompts, `observedAt`, `expiresAt` and " +
  "`stale`: past `expiresAt`), `version`, `createdAt`, `updatedAt`."

const fetchDescription = "The catalog is fetched in the background on the durable engine: the server's `initialize` " +
  "(serverInfo, capabilities, negotiated protocol version) and every page of `tools/list`, `resources/list`, " +
  "`resources/templates/list` and `prompts/list` that its capabilities announce, through the guarded outbound client, " +
  "each request bounded by `MCP_REQUEST_TIMEOUT_MS`. The observed catalog is fresh for `MCP_CATALOG_TTL_SECONDS` and " +
  "is refreshed every 5 minutes when it nears expiry; its tools become the agent's runtime tools " +
  "(Runtime_ListRuntimeTools, `sourceKind` MCP_SERVER, `sourceReference` the connection id)."

/** POST /api/v1/agents/{entityPublicId}/mcp/connections. */
export const createMcpConnection = HttpApiEndpoint.post("createMcpConnection", "/api/v1/agents/:entityPublicId/mcp/connections")
  .setPath(AgentPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(CreateMcpConnectionRequest)
  .addSuccess(Data(McpConnection), { status: 201 })
  .pipe(
    operation({
      id: "MCP_CreateMcpConnection",
      permission: "mcp.connections.write",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 422, 500],
      summary: "Connect an agent to an MCP server",
      description: "Adds a PENDING connection of the agent to the MCP server at `serverUrl` (an absolute http(s) URL " +
        "of at most 2000 characters) over `transport`: STREAMABLE_HTTP (MCP 2025-06-18), SSE (the 2024-11-05 " +
        "HTTP+SSE transport) or AUTO (the default: Streamable HTTP, falling back to SSE when the server answers the " +
        "`initialize` POST with a 4xx other than 401, as the MCP specification's backwards-compatibility section " +
        "describes). `name` (1-200 characters) defaults to the URL's host. A `serverUrl` that is not http(s), " +
        "carries credentials, or names a loopback, private, link-local, metadata or other non-public address (not " +
        "in `OUTBOUND_ALLOWED_HOSTS`) is a 400 `outbound-target-refused` naming `/serverUrl`; a second connection " +
        "of the agent to the same URL is a 409 `connection-exists`. " + fetchDescription + " " + connectionShape +
        " " + agentVisibility + " Replaying " +
        "the Idempotency-Key returns the same 201 and starts no second fetch.",
      errors: [RoleRequired, AgentNotFound, InvalidState, OutboundTargetRefused, ConnectionExists]
    })
  )

/** GET /api/v1/agents/{entityPublicId}/mcp/connections. */
export const listMcpConnections = HttpApiEndpoint.get("listMcpConnections", "/api/v1/agents/:entityPublicId/mcp/connections")
  .setPath(AgentPath)
  .addSuccess(Data(Schema.Array(McpConnection)))
  .pipe(
    operation({
      id: "MCP_ListMcpConnections",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 409, 422, 500],
      summary: "The MCP connections of an agent",
      description: "Every MCP connection of the agent, oldest first. " + connectionShape + " " + agentVisibility +
        " Every workspace role may read them.",
      errors: [AgentNotFound]
    })
  )

/** GET /api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}. */
export const getMcpConnection = HttpApiEndpoint.get(
  "getMcpConnection",
  "/api/v1/agents/:entityPublicId/mcp/connections/:connectionPublicId"
)
  .setPath(ConnectionPath)
  .addSuccess(Data(McpConnection))
  .pipe(
    operation({
      id: "MCP_GetMcpConnection",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 409, 422, 500],
      summary: "One MCP connection of an agent",
      description: "The connection, with the state of its last catalog fetch. " + connectionShape + " " +
        agentVisibility + " A connection that is not the agent's is not found (404 `connection-not-found`). Every " +
        "workspace role may read it.",
      errors: [AgentNotFound, ConnectionNotFound]
    })
  )

/** POST /api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}/catalog/refresh. */
export const refreshMcpCatalog = HttpApiEndpoint.post(
  "refreshMcpCatalog",
  "/api/v1/agents/:entityPublicId/mcp/connections/:connectionPublicId/catalog/refresh"
)
  .setPath(ConnectionPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(RefreshMcpCatalogRequest)
  .addSuccess(Data(McpCatalogRefresh), { status: 202 })
  .pipe(
    operation({
      id: "MCP_RefreshMcpCatalog",
      permission: "mcp.connect",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 422, 500],
      summary: "Fetch an MCP connection's catalog again",
      description: "Starts a fetch of the connection's catalog now and answers 202 with the connection as it is and " +
        "`requestedAt`; MCP_GetMcpConnection and MCP_GetMcpCatalog show the outcome once the fetch ends (a new " +
        "`observedAt` and, when the server's offer changed, a new `digest`; or the connection AUTH_REQUIRED or " +
        "UNREACHABLE with its `lastFailure`, the last catalog kept). " + fetchDescription + " The body is an empty " +
        "object. " + agentVisibility + " A connection that is not the agent's is not found (404 " +
        "`connection-not-found`); a DISABLED one is a 409 `invalid-state`. " +
        "Replaying the Idempotency-Key returns the same 202 and " +
        "starts no second fetch.",
      errors: [RoleRequired, AgentNotFound, ConnectionNotFound, InvalidState]
    })
  )
