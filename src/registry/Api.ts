/**
 * The MCP subregistry contract: the MCP Registry read API v0.1 (the registry's
 * `docs/reference/api/openapi.yaml`, 2025-12-01) for the directory's MCP servers. Its paths are the
 * registry's (`/v0.1/...`, not under `/api/v1`) and its answers are the registry's shapes
 * (`ServerList`, `ServerResponse`), not our envelope, so a client of the official registry reads
 * this directory unchanged; failures are our problem+json documents (the registry leaves error
 * bodies to implementations). Group `Registry`, OpenAPI tag `Registry`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { InvalidCursor } from "../../schema/errors.js"
import { operation } from "../api/operation.js"
import { McpServerNotFound } from "./Errors.js"
import { IncludeDeletedQuery, ListServersQuery, ServerList, ServerNamePath, ServerResponse, ServerVersionPath } from "./Schemas.js"

const readAccess = "Anonymous, or an API key with `agents:read`."

export class RegistryApi extends HttpApiGroup.make("Registry")
  .add(
    HttpApiEndpoint.get("listServers", "/v0.1/servers")
      .setUrlParams(ListServersQuery)
      .addSuccess(ServerList)
      .pipe(
        operation({
          id: "Registry_ListServers",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 500, 503],
          errors: [InvalidCursor],
          summary: "List the directory's MCP servers (MCP Registry API v0.1)",
          description: "The directory's MCP servers in the MCP Registry's v0.1 `ServerList` shape (not our envelope): " +
            "each item is a `server.json` (`server`) with `_meta`: the registry's `io.modelcontextprotocol.registry/official` " +
            "block (status active, deprecated or deleted; publishedAt, updatedAt, statusChangedAt, isLatest) and our " +
            "`dev.agent-directory/evidence` (agent id and profile, verification state, trust, health, findings, upstream " +
            "source). Ordered by name then version.\n\n" +
            "- `search`: a case-insensitive substring of the server name.\n" +
            "- `version`: `latest` (each server's latest version only) or an exact version.\n" +
            "- `updated_since` (RFC 3339): versions updated after it, deleted ones included (for incremental mirrors).\n" +
            "- `include_deleted` (default false): also list deleted versions.\n" +
            "- Pages: `limit` 1-100 (default 30); pass `metadata.nextCursor` back as `cursor` with the same query " +
            "(an altered or foreign cursor is 400 `invalid-cursor`); the last page has no `nextCursor`.\n\n" + readAccess
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listServerVersions", "/v0.1/servers/:serverName/versions")
      .setPath(ServerNamePath)
      .setUrlParams(IncludeDeletedQuery)
      .addSuccess(ServerList)
      .pipe(
        operation({
          id: "Registry_ListServerVersions",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          errors: [McpServerNotFound],
          summary: "Every version of one MCP server (MCP Registry API v0.1)",
          description: "The versions of the server `serverName` (URL-encoded: `com.example%2Fmy-server`), newest " +
            "published first, in the `ServerList` shape; deleted versions only with `include_deleted=true`. An unknown " +
            "name (or one with only deleted versions) is 404 `mcp-server-not-found`. " + readAccess
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getServerVersion", "/v0.1/servers/:serverName/versions/:version")
      .setPath(ServerVersionPath)
      .setUrlParams(IncludeDeletedQuery)
      .addSuccess(ServerResponse)
      .pipe(
        operation({
          id: "Registry_GetServerVersion",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          errors: [McpServerNotFound],
          summary: "One version of an MCP server (MCP Registry API v0.1)",
          description: "The version `version` of the server `serverName` (both URL-encoded; `latest` is the latest " +
            "version) as a `ServerResponse`. A deleted version is answered only with `include_deleted=true`; an unknown " +
            "name or version is 404 `mcp-server-not-found`. " + readAccess
        })
      )
  )
  .annotate(OpenApi.Title, "Registry")
  .annotate(OpenApi.Description, "Registry: the directory as an MCP subregistry (MCP Registry read API v0.1)")
{}
