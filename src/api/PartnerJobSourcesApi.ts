/**
 * Jobs area contract, partner job sources (spec §2.18, §4.2). Its own group
 * (identifier `PartnerJobSources`) published under the OpenAPI tag `Jobs`.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { PartnerJobSource, SyncPartnerJobSourceRequest } from "../../schema/partnerJobs.js"
import { operation } from "./operation.js"

export class PartnerJobSourcesApi extends HttpApiGroup.make("PartnerJobSources")
  .add(
    HttpApiEndpoint.post("syncPartnerJobSource", "/api/v1/admin/jobs/sources/:sourceId/sync")
      .setPath(Schema.Struct({ sourceId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(SyncPartnerJobSourceRequest)
      .addSuccess(Data(PartnerJobSource), { status: 202 })
      .annotate(
        OpenApi.Description,
        "Asks for an immediate sync of a partner job source. `dryRun` (default true) changes nothing and returns the " +
          "source as it is (after the same version and state checks). Applying (`dryRun: false`) needs `confirmation` " +
          "equal to the source's `code`: it sets `nextSyncAt` to now, bumps `version` and queues the sync on the " +
          "background job runner, which fetches `endpointUrl` (partner feed v1, see the README) within " +
          "`requestTimeoutMs` and stores the jobs. Sources also sync on their own every `pollIntervalSeconds`. A sync " +
          "that fails (network error, timeout, non-2xx, invalid feed) increments `failureCount`; at 3 consecutive " +
          "failures an ACTIVE source becomes DEGRADED; a successful sync resets `failureCount` to 0 and moves a " +
          "DEGRADED source back to ACTIVE. These runner updates do not change `version`. Allowed from ACTIVE and " +
          "DEGRADED. Problems: 400 `invalid-request` (body rules), 400 `confirmation-required` / " +
          "`confirmation-mismatch`; 401 `unauthenticated`; 403 `admin-required`, `csrf-token-invalid`, " +
          "`recent-authentication-required`; 404 `partner-job-source-not-found`; 409 `version-conflict` (stale " +
          "expectedVersion), 409 `invalid-state` (PAUSED or DISABLED), 409 `idempotency-key-reuse`. Example (demo " +
          "data): `{\"expectedVersion\":4,\"reason\":\"Partner fixed their feed\",\"dryRun\":false," +
          "\"confirmation\":\"gigboard\"}` on source 01900093-0000-7000-8000-000000000001 → 202 " +
          "`{\"data\":{\"id\":\"01900093-0000-7000-8000-000000000001\",\"code\":\"gigboard\",\"state\":\"ACTIVE\"," +
          "\"nextSyncAt\":\"<now>\",\"version\":5,…},\"meta\":{…}}`."
      )
      .pipe(
        operation({
          id: "Jobs_SyncPartnerJobSource",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Schedule an immediate sync of a partner job source (admin)"
        })
      )
  )
  .annotate(OpenApi.Title, "Jobs")
  .annotate(OpenApi.Description, "Jobs: bounties, disputes and partner job sources")
{}
