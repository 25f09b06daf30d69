/**
 * Jobs area contract, bounty dispute resolution (spec §3, §4.2). Its own group
 * (identifier `BountyDisputes`) published under the OpenAPI tag `Jobs`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { DisputeResolutionResult, ResolveBountyDisputeRequest } from "./Schemas.js"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { ChainRpcUnavailable, ConfirmationMismatch, Conflict, InvalidState, VersionConflict } from "../../../schema/errors.js"
import { ApprovalRequired, CommandHashMismatch, DisputeNotFound, EscrowUnavailable, UnitsRule } from "./Errors.js"

export class BountyDisputesApi extends HttpApiGroup.make("BountyDisputes")
  .add(
    HttpApiEndpoint.post("resolveBountyDispute", "/api/v1/admin/bounties/:bountyId/disputes/:disputeId/resolution")
      .setPath(Schema.Struct({ bountyId: Uuid, disputeId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(ResolveBountyDisputeRequest)
      .addSuccess(Data(DisputeResolutionResult), { status: 202 })
      .pipe(
        operation({
          id: "Jobs_ResolveBountyDispute",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Preview or apply the resolution of a bounty dispute (admin)",
          description: "Pays out a disputed bounty's escrow, in two steps. **Preview** (`dryRun` true, the default) " +
            "changes nothing and returns `kind: PREVIEW` with the exact command: its `commandHash` (43-char base64url " +
            "SHA-256 of the canonical JSON of {operation, bountyId, disputeId, expectedVersion, resolution, " +
            "unitsToProvider, unitsToClient, reason, network, contractAddress, walletPublicId}), the escrow's `network`, " +
            "`contractAddress` and `walletPublicId`, the `decisionDigest` the escrow contract verifies (the EIP-712 " +
            "digest of the decision {bountyId, disputeId, toProvider, toClient} in the escrow contract's domain: name " +
            "BountyEscrow, version 1, the network's chain id, verifyingContract = contractAddress; the ids as bytes32, " +
            "the uuid's 16 bytes left-padded) and the `confirmation` text (`RESOLVE <disputeId> <resolution>`).\n\n**Apply** with " +
            "`dryRun: false`, the same inputs, `approvedCommandHash` = the preview's `commandHash` and `confirmation` = " +
            "the preview's text: the dispute goes OPEN → RESOLVED and the bounty DISPUTED → RELEASE_PENDING (RELEASE, " +
            "SPLIT) or REFUND_PENDING (REFUND), both versions go up by one, an escrow transaction intent and an audit " +
            "event are written, and `kind: ACCEPTED` returns their ids with the new `bountyVersion` and " +
            "`disputeVersion`. The transaction intent (`Wallets_GetTransactionIntent`) calls the escrow's " +
            "`resolve(decision, signature)`, the decision signed by the platform's arbiter and shown as its typed data; " +
            "the platform sends it and, once confirmed, the bounty is RELEASED (units to the provider) or REFUNDED. " +
            "An escrow network or arbiter signer that is not configured is a 503 `escrow-unavailable` (nothing is " +
            "applied).\n\n`expectedVersion` is the dispute's version (optimistic concurrency; a preview checks it " +
            "too). Units (decimal strings, compared exactly): RELEASE gives the whole escrow to the provider " +
            "(unitsToClient 0), REFUND the whole escrow to the client (unitsToProvider 0), SPLIT gives both a positive " +
            "part; the two always add up to the escrowed amount. A resolved or withdrawn dispute, or a bounty not in " +
            "dispute, or an escrow on a network that is not `eip155:<chain id>`, is a 409 `invalid-state`.",
          errors: [UnitsRule, ApprovalRequired, ConfirmationMismatch, DisputeNotFound, VersionConflict, InvalidState, CommandHashMismatch, Conflict, EscrowUnavailable, ChainRpcUnavailable]
        })
      )
  )
  .annotate(OpenApi.Title, "Jobs")
  .annotate(OpenApi.Description, "Jobs: bounties, disputes and partner job sources")
{}
