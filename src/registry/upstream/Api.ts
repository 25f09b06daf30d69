/**
 * Upstream sources contract (admin): the registries, chains and domains the directory ingests agents
 * from. Group `UpstreamSources`, published under the OpenAPI tag `Partners` (the operationId prefix).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Data } from "../../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { Conflict, InvalidState, VersionConflict } from "../../../schema/errors.js"
import { operation } from "../../api/operation.js"
import { UpstreamSourceNotFound } from "./Errors.js"
import { CreateUpstreamSourceRequest, SyncUpstreamSourceRequest, UpstreamSource, UpstreamSourcePath } from "./Schemas.js"

const ingestion = "Every ingested agent records its source and stays UNVERIFIED until it proves control " +
  "(its identity, its domain); re-ingesting the same content changes nothing; an entry that vanished upstream is " +
  "marked VANISHED (its MCP server versions `deleted`), never deleted. Fetches go through the outbound guard, at most " +
  "2 at a time per host, with backoff on 429, 5xx and network errors, and `If-None-Match` / `If-Modified-Since` " +
  "from the entry's last fetch. See docs/registry.md."

export class UpstreamSourcesApi extends HttpApiGroup.make("UpstreamSources")
  .add(
    HttpApiEndpoint.post("createUpstreamSource", "/api/v1/admin/upstream-sources")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateUpstreamSourceRequest)
      .addSuccess(Data(UpstreamSource), { status: 201 })
      .pipe(
        operation({
          id: "Partners_CreateUpstreamSource",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 409, 500, 503],
          summary: "Add an upstream source of agents (admin)",
          description: "Adds a source the directory ingests agents from, answered 201 with the source (ACTIVE, version " +
            "1, first sync due now). `kind` MCP_REGISTRY: `baseUrl`, an MCP registry speaking the read API v0.1, read " +
            "incrementally by `updated_since` and cursor pages. ERC8004: `network` (CAIP-2 eip155) and `registryAddress`, an " +
            "ERC-8004 Identity Registry whose `Registered` and `URIUpdated` logs are read through the configured chain " +
            "(`CHAIN_RPC_URLS`) or, for another network, `rpcUrl`; each registration file is fetched from its URI " +
            "(http(s) or `data:`). WELL_KNOWN: `domains` whose `/.well-known/agent-card.json` (A2A) is read. " +
            "`syncIntervalSeconds` (60-604800, default 3600) paces the syncs on the durable engine.\n\n" + ingestion
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listUpstreamSources", "/api/v1/admin/upstream-sources")
      .addSuccess(Data(Schema.Array(UpstreamSource)))
      .pipe(
        operation({
          id: "Partners_ListUpstreamSources",
          auth: "required-admin",
          cache: "none",
          statuses: [401, 403, 500, 503],
          summary: "List the upstream sources (admin)",
          description: "Every upstream source, oldest first (at most 500), with its sync state (`nextSyncAt`, " +
            "`lastSuccessfulSyncAt`, `failureCount`, `lastFailure`, `watermark`) and its entries present and vanished."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("syncUpstreamSource", "/api/v1/admin/upstream-sources/:sourceId/sync")
      .setPath(UpstreamSourcePath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(SyncUpstreamSourceRequest)
      .addSuccess(Data(UpstreamSource), { status: 202 })
      .pipe(
        operation({
          id: "Partners_SyncUpstreamSource",
          auth: "required-admin",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Sync an upstream source now (admin)",
          description: "Starts a sync of the source now (a workflow on the durable engine) and answers 202 with the " +
            "source: `nextSyncAt` = now, `version` + 1. `full: true` reads everything again (not only what changed since " +
            "the watermark) and marks the entries no longer found as vanished. `expectedVersion` is the source's version " +
            "(409 `version-conflict` otherwise). A sync that fails counts in `failureCount` (3 in a row: DEGRADED); one " +
            "that succeeds resets it and restores ACTIVE; these updates leave `version` unchanged. Sources also sync on " +
            "their own every `syncIntervalSeconds`.\n\n" + ingestion,
          errors: [UpstreamSourceNotFound, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .annotate(OpenApi.Title, "Partners")
  .annotate(OpenApi.Description, "Partners: upstream sources the directory ingests agents from (admin)")
{}
