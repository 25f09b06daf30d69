/**
 * Jobs area contract, partner job sources (spec §2.18, §4.2). Its own group
 * (identifier `PartnerJobSources`) published under the OpenAPI tag `Jobs`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import {
  CreatePartnerJobSourceRequest,
  PartnerJobSource,
  PartnerJobSourcePath,
  SyncPartnerJobSourceRequest,
  UpdatePartnerJobSourceRequest
} from "./Schemas.js"
import { operation } from "../../api/operation.js"
import {
  ConfirmationMismatch,
  ConfirmationRequired,
  Conflict,
  InvalidRequest,
  InvalidState,
  OutboundTargetRefused,
  VersionConflict
} from "../../../schema/errors.js"
import { PartnerJobSourceCodeTaken, PartnerJobSourceNotFound } from "./Errors.js"

const feedRules = "The feed (docs/jobs.md): `GET endpointUrl` with `Accept: application/json` answers " +
  "`{\"schemaVersion\": 1 | 2, \"jobs\": [...]}` (at most 1000 jobs) of the source's `responseSchemaVersion`; version 2 " +
  "jobs may carry `skills`, `protocols` and a `reward` (`units`, `asset` symbol, `network`). Each job is validated on its " +
  "own: one that fails (or repeats an `externalId`) is skipped and counted in `lastSyncSkippedCount`, with the first 20 " +
  "in `lastSyncSkipped` (index, pointer and rule, never a value); the others are stored with their source reference " +
  "(source, `externalId`, `url`) and listed by Jobs_ListJobs while the source is ACTIVE or DEGRADED. A job the feed " +
  "no longer lists leaves the board. The endpoint is fetched through the outbound guard (public addresses only unless " +
  "`OUTBOUND_ALLOWED_HOSTS` names the host)."

export class PartnerJobSourcesApi extends HttpApiGroup.make("PartnerJobSources")
  .add(
    HttpApiEndpoint.post("createPartnerJobSource", "/api/v1/admin/jobs/sources")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreatePartnerJobSourceRequest)
      .addSuccess(Data(PartnerJobSource), { status: 201 })
      .pipe(
        operation({
          id: "Jobs_CreatePartnerJobSource",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 409, 500, 503],
          summary: "Add a partner job source (admin)",
          description: "Adds a partner whose job feed the directory syncs, answered 201 with the source: ACTIVE, " +
            "version 1, `configurationVersion` 1, its first sync due now (the every-minute schedule starts it), then " +
            "every `pollIntervalSeconds` (60-86400, default 900), each fetch within `requestTimeoutMs` (1000-60000, " +
            "default 10000). `code` (2-100 lower-case letters, digits, `-`) is unique: 409 " +
            "`partner-job-source-code-taken`. `endpointUrl` must pass the outbound rules: 400 `outbound-target-refused` " +
            "naming `/endpointUrl`. `responseSchemaVersion` (1 or 2, default 2) is the feed version the partner serves.\n\n" +
            feedRules,
          errors: [OutboundTargetRefused, PartnerJobSourceCodeTaken]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listPartnerJobSources", "/api/v1/admin/jobs/sources")
      .addSuccess(Data(Schema.Array(PartnerJobSource)))
      .pipe(
        operation({
          id: "Jobs_ListPartnerJobSources",
          auth: "required-admin",
          cache: "none",
          statuses: [401, 403, 500, 503],
          summary: "List the partner job sources (admin)",
          description: "Every partner job source, oldest first (at most 500), with its configuration and its sync " +
            "record: `state`, `nextSyncAt`, `lastSuccessfulSyncAt`, `failureCount` and `lastFailure`, the jobs its last " +
            "successful sync stored (`lastSyncJobCount`) and skipped (`lastSyncSkippedCount`, `lastSyncSkipped`)."
        })
      )
  )
  .add(
    HttpApiEndpoint.patch("updatePartnerJobSource", "/api/v1/admin/jobs/sources/:sourceId")
      .setPath(PartnerJobSourcePath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(UpdatePartnerJobSourceRequest)
      .addSuccess(Data(PartnerJobSource))
      .pipe(
        operation({
          id: "Jobs_UpdatePartnerJobSource",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Change, pause or disable a partner job source (admin)",
          description: "Changes a source's configuration (`displayName`, `websiteUrl`, `endpointUrl`, " +
            "`responseSchemaVersion`, `pollIntervalSeconds`, `requestTimeoutMs`; `configurationVersion` + 1) and/or its " +
            "`state`, at `expectedVersion` (optimistic concurrency: 409 `version-conflict`); `version` + 1. A body " +
            "changing nothing is 400. A new `endpointUrl` must pass the outbound rules (400 `outbound-target-refused`); " +
            "with a new `endpointUrl` or `responseSchemaVersion` a syncing source syncs now.\n\nTransitions: `PAUSED` " +
            "from ACTIVE, DEGRADED (its jobs leave the board, no sync runs); `ACTIVE` from PAUSED (resume: failures " +
            "reset, sync due now; a DEGRADED source returns to ACTIVE by a successful sync only); `DISABLED` from " +
            "ACTIVE, DEGRADED, PAUSED (final: a DISABLED source changes no more). Others: 409 `invalid-state`.",
          errors: [InvalidRequest, OutboundTargetRefused, PartnerJobSourceNotFound, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("syncPartnerJobSource", "/api/v1/admin/jobs/sources/:sourceId/sync")
      .setPath(Schema.Struct({ sourceId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(SyncPartnerJobSourceRequest)
      .addSuccess(Data(PartnerJobSource), { status: 202 })
      .pipe(
        operation({
          id: "Jobs_SyncPartnerJobSource",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Schedule an immediate sync of a partner job source (admin)",
          description: "Asks for an immediate sync of a partner job source. `dryRun` (default true) changes nothing " +
            "and returns the source as it is, after the same version and state checks. Applying (`dryRun: false`) " +
            "needs `confirmation` equal to the source's `code`: it sets `nextSyncAt` to now, increments `version` and " +
            "starts the sync (a workflow on the durable engine), which fetches `endpointUrl` (partner feed v1, see the " +
            "README) within `requestTimeoutMs` and stores the jobs. Sources also sync on their own every " +
            "`pollIntervalSeconds`.\n\nTransitions: allowed from ACTIVE and DEGRADED (PAUSED, DISABLED → 409 " +
            "`invalid-state`). A sync that fails (network error, timeout, non-2xx, invalid feed) increments " +
            "`failureCount`; at 3 consecutive failures an ACTIVE source becomes DEGRADED; a successful sync resets " +
            "`failureCount` to 0 and moves a DEGRADED source back to ACTIVE. These runner updates leave `version` " +
            "unchanged. `expectedVersion` is the source's version (optimistic concurrency).",
          errors: [ConfirmationRequired, ConfirmationMismatch, PartnerJobSourceNotFound, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .annotate(OpenApi.Title, "Jobs")
  .annotate(OpenApi.Description, "Jobs: bounties, disputes and partner job sources")
{}
