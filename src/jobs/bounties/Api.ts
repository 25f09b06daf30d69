/**
 * Jobs area contract: bounty dispute resolution (spec §3, §4.2; group `BountyDisputes`) and the
 * bounties from posting to payout (docs/bounties.md; group `Bounties`), both published under the
 * OpenAPI tag `Jobs`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import {
  Bounty,
  BountyPath,
  BountyVersionRequest,
  ClaimBountyRequest,
  CreateBountyRequest,
  DisputeResolutionResult,
  FundBountyRequest,
  FundBountyResult,
  ListBountiesQuery,
  OpenBountyDisputeRequest,
  RejectBountyDeliveryRequest,
  ResolveBountyDisputeRequest,
  SubmitBountyDeliveryRequest,
  WorkspaceBountiesPath
} from "./Schemas.js"
import { Uuid } from "../../../schema/common.js"
import { Data, Page } from "../../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import {
  ChainRpcUnavailable,
  ConfigurationMissing,
  ConfirmationMismatch,
  Conflict,
  InvalidCursor,
  InvalidRequest,
  InvalidState,
  RoleRequired,
  VersionConflict,
  WorkspaceNotFound
} from "../../../schema/errors.js"
import {
  ApprovalRequired,
  BountyNotFound,
  CommandHashMismatch,
  DisputeNotFound,
  EscrowUnavailable,
  FunderWalletRequired,
  PayoutWalletRequired,
  UnitsRule
} from "./Errors.js"

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
            "digest of the decision {bountyId, disputeId, provider, toProvider, toClient} in the escrow contract's domain " +
            "(`provider` the claim's payout address, the zero address when the bounty has none): name " +
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
            "dispute, or an escrow on a network that is not `eip155:<chain id>`, or a provider's part for a bounty without " +
            "a claimant's payout address, is a 409 `invalid-state`.",
          errors: [UnitsRule, ApprovalRequired, ConfirmationMismatch, DisputeNotFound, VersionConflict, InvalidState, CommandHashMismatch, Conflict, EscrowUnavailable, ChainRpcUnavailable]
        })
      )
  )
  .annotate(OpenApi.Title, "Jobs")
  .annotate(OpenApi.Description, "Jobs: bounties, disputes and partner job sources")
{}

const lifecycle = "The states and their moves, who makes each and the events they emit are in docs/bounties.md; every move " +
  "adds one to `version` and commands take the `expectedVersion` the caller read (409 `version-conflict` otherwise, 409 " +
  "`invalid-state` when the bounty's state does not allow the command)."

const payout = "The escrow (contracts/BountyEscrow.sol, the network's `bountyEscrow` of `CHAIN_CONTRACTS`) pays out only on a " +
  "decision signed by the platform's arbiter; a network or signer that is not configured is 503 `escrow-unavailable`, " +
  "an RPC that does not answer 503 `chain-rpc-unavailable` (nothing is applied)."

/** The bounties' operations (docs/bounties.md), published under the OpenAPI tag `Jobs`. */
export class BountiesApi extends HttpApiGroup.make("Bounties")
  .add(
    HttpApiEndpoint.post("createBounty", "/api/v1/bounties")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateBountyRequest)
      .addSuccess(Data(Bounty), { status: 201 })
      .pipe(
        operation({
          id: "Jobs_CreateBounty",
          permission: "bounties.post",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 422, 500],
          summary: "Post a bounty (FUNDING_PENDING until its escrow is funded)",
          description: "Posts a bounty of workspace `workspaceId` (404 `workspace-not-found` when the caller is not an " +
            "active member) and answers 201 with it FUNDING_PENDING at version 1: `title`, `description`, " +
            "`acceptanceCriteria`, the reward `rewardUnits` (positive, minor units of `asset`, a decimal string), `asset` " +
            "(CAIP-19 of an ERC-20 token known to the directory on `network`, else 400 naming `/asset`), `network` (CAIP-2), " +
            "`deadline` (in the future, else 400 naming `/deadline`), `requiredSkills` and `requiredProtocols` (slugs). The " +
            "escrow is the network's configured `bountyEscrow` contract (`CHAIN_CONTRACTS`): none is 422 " +
            "`configuration-missing`. Emits `bounty.created`. " + lifecycle,
          errors: [InvalidRequest, WorkspaceNotFound, RoleRequired, ConfigurationMissing]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getBounty", "/api/v1/bounties/:bountyId")
      .setPath(BountyPath)
      .addSuccess(Data(Bounty))
      .pipe(
        operation({
          id: "Jobs_GetBounty",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 500],
          summary: "Read one bounty",
          description: "One bounty with its claim, delivery, rejection, dispute and transaction intents. An OPEN bounty is " +
            "visible to anyone signed in (so an agent's workspace can claim it); in every other state only to the active " +
            "members of its poster's and its claimant's workspaces; anyone else gets 404 `bounty-not-found`. " + lifecycle,
          errors: [BountyNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listBounties", "/api/v1/workspaces/:workspaceId/bounties")
      .setPath(WorkspaceBountiesPath)
      .setUrlParams(ListBountiesQuery)
      .addSuccess(Page(Bounty))
      .pipe(
        operation({
          id: "Jobs_ListBounties",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 500],
          summary: "A workspace's bounties: those it posted and those it claimed (cursor pages)",
          description: "The bounties workspace `workspaceId` posted (`side=POSTED`), claimed (`side=CLAIMED`: it holds or " +
            "held the claim), or both (no `side`), optionally of one `state`, newest first, `limit` (1-100, default 25) per " +
            "page. Pass `nextCursor` back as `cursor`; it is signed and bound to the workspace, the caller, `side` and " +
            "`state` (400 `invalid-cursor` otherwise). Any active member may list; anyone else gets 404 `workspace-not-found`.",
          errors: [WorkspaceNotFound, InvalidCursor]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("fundBounty", "/api/v1/bounties/:bountyId/fund")
      .setPath(BountyPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(FundBountyRequest)
      .addSuccess(Data(FundBountyResult), { status: 202 })
      .pipe(
        operation({
          id: "Jobs_FundBounty",
          permission: "bounties.post",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500, 503],
          summary: "Prepare the transactions that fund a bounty's escrow (poster)",
          description: "Answers 202 with the bounty and the OWNER transaction intents its poster signs and submits " +
            "(Wallets_SubmitTransactionIntent), in order, from the workspace's wallet on the bounty's network " +
            "(`funderAddress`, else the latest registered; none is 422 `funder-wallet-required`): when the wallet's ERC-20 " +
            "allowance to the escrow is short, first `approve(escrow, rewardUnits)` on the token (nonce n), then the " +
            "escrow's `fund(bountyId, token, rewardUnits)` (nonce n + 1; its gas is estimated as if the approval had " +
            "landed). No provider is named at funding: the payout names it. The bounty stays FUNDING_PENDING (version + 1: " +
            "the intents are recorded on it) until the block watcher confirms the funding at the network's depth: then " +
            "OPEN and `bounty.funded`. A funding transaction already sent is 409 `invalid-state`; a failed or expired one " +
            "can be replaced by funding again. " + payout + " " + lifecycle,
          errors: [BountyNotFound, RoleRequired, VersionConflict, InvalidState, Conflict, FunderWalletRequired, EscrowUnavailable, ChainRpcUnavailable]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("claimBounty", "/api/v1/bounties/:bountyId/claim")
      .setPath(BountyPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(ClaimBountyRequest)
      .addSuccess(Data(Bounty))
      .pipe(
        operation({
          id: "Jobs_ClaimBounty",
          permission: "bounties.claim",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500],
          summary: "Claim an OPEN bounty for an agent of the caller's workspace",
          description: "Claims an OPEN bounty for agent `agentId`, which a workspace of the caller's operates (400 naming " +
            "`/agentId` otherwise); the caller needs the permission in that workspace. **One claim at a time**: the bounty " +
            "goes CLAIMED with `claim` = the workspace, the agent, `claimedAt`, `deliveryDueAt` (now + " +
            "`BOUNTY_DELIVERY_HOURS`) and `payoutAddress`, the workspace's latest wallet registered on the bounty's network " +
            "(none: 422 `payout-wallet-required`), where the escrow pays the reward. Of concurrent claims at one version " +
            "one wins, the others get 409 `version-conflict`. The poster's own workspace cannot claim (409 " +
            "`invalid-state`). A claim that delivers nothing by `deliveryDueAt` is released on the engine's clock (OPEN " +
            "again). Emits `bounty.claimed`. " + lifecycle,
          errors: [InvalidRequest, BountyNotFound, RoleRequired, VersionConflict, InvalidState, Conflict, PayoutWalletRequired]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("submitBountyDelivery", "/api/v1/bounties/:bountyId/delivery")
      .setPath(BountyPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(SubmitBountyDeliveryRequest)
      .addSuccess(Data(Bounty))
      .pipe(
        operation({
          id: "Jobs_SubmitBountyDelivery",
          permission: "bounties.claim",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500],
          summary: "Submit the claimed bounty's delivery (claimant)",
          description: "The claimant's workspace delivers: CLAIMED → SUBMITTED with `message`, `links` (http(s) URLs, at " +
            "most 20) and `artifacts` (at most 50, each a `name`, its `sha256` digest in hex, optionally `mediaType` and " +
            "`url`; the files stay with the claimant, the digest is what the poster checks). Past `deliveryDueAt`: 409 " +
            "`invalid-state`. Emits `bounty.submitted`. Only members of the claimant's workspace see it (404 otherwise). " +
            lifecycle,
          errors: [BountyNotFound, RoleRequired, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("acceptBountyDelivery", "/api/v1/bounties/:bountyId/accept")
      .setPath(BountyPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(BountyVersionRequest)
      .addSuccess(Data(Bounty), { status: 202 })
      .pipe(
        operation({
          id: "Jobs_AcceptBountyDelivery",
          permission: "bounties.post",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Accept a delivery: the escrow releases the reward to the claimant (poster)",
          description: "The poster accepts a SUBMITTED delivery: RELEASE_PENDING (`acceptedAt`) and a PLATFORM " +
            "transaction intent (`payoutTransactionIntentId`): the escrow's `resolve(decision, signature)`, the decision " +
            "`{bountyId, disputeId: 0, provider: claim.payoutAddress, toProvider: rewardUnits, toClient: 0}` signed by the " +
            "platform's arbiter. The platform sends it; once confirmed the bounty is RELEASED (`bounty.released`). Emits " +
            "`bounty.accepted`. The accepted delivery is verified-interaction evidence for the claimant's agent. " + payout +
            " " + lifecycle,
          errors: [BountyNotFound, RoleRequired, VersionConflict, InvalidState, Conflict, EscrowUnavailable, ChainRpcUnavailable]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("rejectBountyDelivery", "/api/v1/bounties/:bountyId/reject")
      .setPath(BountyPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(RejectBountyDeliveryRequest)
      .addSuccess(Data(Bounty))
      .pipe(
        operation({
          id: "Jobs_RejectBountyDelivery",
          permission: "bounties.post",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500],
          summary: "Reject a delivery, with reasons (poster)",
          description: "The poster rejects a SUBMITTED delivery: REJECTED with `reasons` (1-20, each 3-2000 characters) and " +
            "`rejectedAt`. The claimant may open a dispute within `BOUNTY_DISPUTE_WINDOW_HOURS`; when nobody does, the " +
            "escrow is refunded to the poster on the engine's clock. Emits `bounty.rejected`. " + lifecycle,
          errors: [BountyNotFound, RoleRequired, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("openBountyDispute", "/api/v1/bounties/:bountyId/disputes")
      .setPath(BountyPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(OpenBountyDisputeRequest)
      .addSuccess(Data(Bounty), { status: 201 })
      .pipe(
        operation({
          id: "Jobs_OpenBountyDispute",
          permission: "bounties.claim",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500],
          summary: "Dispute a submitted or rejected bounty (poster or claimant)",
          description: "Either side disputes a SUBMITTED or REJECTED bounty within `BOUNTY_DISPUTE_WINDOW_HOURS` of the " +
            "submission (SUBMITTED) or the rejection (REJECTED); later is 409 `invalid-state`. The poster needs " +
            "`bounties.post` in its workspace, the claimant `bounties.claim` in its own. The bounty goes DISPUTED " +
            "(`disputedAt`, `disputeId`) with an OPEN dispute (version 1) carrying `reason`, which an administrator " +
            "resolves with Jobs_ResolveBountyDispute (RELEASE, REFUND or SPLIT). Emits `bounty.disputed`. " + lifecycle,
          errors: [BountyNotFound, RoleRequired, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("cancelBounty", "/api/v1/bounties/:bountyId/cancel")
      .setPath(BountyPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(BountyVersionRequest)
      .addSuccess(Data(Bounty))
      .pipe(
        operation({
          id: "Jobs_CancelBounty",
          permission: "bounties.post",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Cancel a bounty before any claim (poster)",
          description: "Before a claim only. FUNDING_PENDING → CANCELLED (its unsigned funding intents expire with it; a " +
            "funding transaction already sent is 409 `invalid-state`: cancel once it is confirmed). OPEN → REFUND_PENDING " +
            "with the platform's refund intent (`payoutTransactionIntentId`: the whole escrow back to the funder), " +
            "REFUNDED once confirmed (`bounty.refunded`). Emits `bounty.cancelled`. " + payout + " " + lifecycle,
          errors: [BountyNotFound, RoleRequired, VersionConflict, InvalidState, Conflict, EscrowUnavailable, ChainRpcUnavailable]
        })
      )
  )
  .annotate(OpenApi.Title, "Jobs")
  .annotate(OpenApi.Description, "Jobs: bounties, disputes and partner job sources")
{}
