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
import { PartnerJobSource, SyncPartnerJobSourceRequest } from "./Schemas.js"
import { operation } from "../../api/operation.js"
import { ConfirmationMismatch, ConfirmationRequired, Conflict, InvalidState, VersionConflict } from "../../../schema/errors.js"
import { PartnerJobSourceNotFound } from "./Errors.js"

export class PartnerJobSourcesApi extends HttpApiGroup.make("PartnerJobSources")
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
