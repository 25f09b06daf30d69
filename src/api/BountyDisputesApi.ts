/**
 * Jobs area contract, bounty dispute resolution (spec §3, §4.2). Its own group
 * (identifier `BountyDisputes`) published under the OpenAPI tag `Jobs`.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { DisputeResolutionResult, ResolveBountyDisputeRequest } from "../../schema/bounties.js"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { operation } from "./operation.js"

export class BountyDisputesApi extends HttpApiGroup.make("BountyDisputes")
  .add(
    HttpApiEndpoint.post("resolveBountyDispute", "/api/v1/admin/bounties/:bountyId/disputes/:disputeId/resolution")
      .setPath(Schema.Struct({ bountyId: Uuid, disputeId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(ResolveBountyDisputeRequest)
      .addSuccess(Data(DisputeResolutionResult), { status: 202 })
      .annotate(
        OpenApi.Description,
        "Pays out a disputed bounty's escrow, in two steps. **Preview** (`dryRun` true, the default) changes nothing and " +
          "returns `kind: PREVIEW` with the exact command: its `commandHash` (43-char base64url SHA-256 of the canonical " +
          "JSON of {operation, bountyId, disputeId, expectedVersion, resolution, unitsToProvider, unitsToClient, reason, " +
          "network, contractAddress, walletPublicId}), the escrow's `network`, `contractAddress` and `walletPublicId`, the " +
          "`decisionDigest` the escrow contract verifies (0x + SHA-256 hex of the payout) and the `confirmation` text " +
          "(`RESOLVE <disputeId> <resolution>`). **Apply** with `dryRun: false`, the same inputs, `approvedCommandHash` = " +
          "the preview's `commandHash` and `confirmation` = the preview's text: the dispute becomes RESOLVED, the bounty " +
          "RELEASE_PENDING (RELEASE, SPLIT) or REFUND_PENDING (REFUND), both versions go up by one, an escrow transaction " +
          "intent and an audit event are written, and `kind: ACCEPTED` returns their ids. `expectedVersion` is the " +
          "dispute's version. Units: RELEASE gives the whole escrow to the provider (unitsToClient 0), REFUND the whole " +
          "escrow to the client (unitsToProvider 0), SPLIT gives both a positive part; the two always add up to the " +
          "escrowed amount. Problems: 400 `invalid-request` (body rules), 400 `units-rule` (units break the resolution's " +
          "rule or do not add up to the escrow), 400 `approval-required` (apply without approvedCommandHash or " +
          "confirmation), 400 `confirmation-mismatch`; 401 `unauthenticated`; 403 `admin-required`, `csrf-token-invalid`, " +
          "`recent-authentication-required`; 404 `dispute-not-found` (no such dispute on that bounty); 409 " +
          "`version-conflict` (stale expectedVersion), 409 `invalid-state` (dispute already resolved or withdrawn, bounty " +
          "not in dispute), 409 `command-hash-mismatch` (the approved hash is not this command's), 409 " +
          "`idempotency-key-reuse`. Example (demo data): `{\"resolution\":\"SPLIT\",\"unitsToProvider\":\"150000000\"," +
          "\"unitsToClient\":\"100000000\",\"reason\":\"Two of the three milestones were delivered as agreed.\"," +
          "\"expectedVersion\":1}` on dispute 01900092-0000-7000-8000-000000000001 of bounty " +
          "01900091-0000-7000-8000-000000000001 → 202 `{\"data\":{\"kind\":\"PREVIEW\",\"commandHash\":\"…43 chars…\"," +
          "\"confirmation\":\"RESOLVE 01900092-0000-7000-8000-000000000001 SPLIT\",\"network\":\"base\"," +
          "\"contractAddress\":\"0x5b1e5c0ffee0000000000000000000000000b0a7\",…},\"meta\":{…}}`."
      )
      .pipe(
        operation({
          id: "Jobs_ResolveBountyDispute",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Preview or apply the resolution of a bounty dispute (admin)"
        })
      )
  )
  .annotate(OpenApi.Title, "Jobs")
  .annotate(OpenApi.Description, "Jobs: bounties, disputes and partner job sources")
{}
