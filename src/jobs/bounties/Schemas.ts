/** Bounties (docs/bounties.md) and their dispute resolution (spec §3, §4.2: Jobs_ResolveBountyDispute). */
import { Schema } from "effect"
import { DateTimeZ, HttpUrl, QueryInt, rule, StrictStruct, Units, Uuid, Version, WireString } from "../../../schema/common.js"
import { TransactionIntent } from "../../../schema/transactionIntents.js"

/** How the escrow of a disputed bounty is paid out. */
export const DisputeResolution = Schema.Literal("RELEASE", "REFUND", "SPLIT")
export type DisputeResolution = typeof DisputeResolution.Type

/** State of an accepted resolution command (spec §3). */
export const DisputeResolutionState = Schema.Literal("RELEASE_PENDING", "REFUND_PENDING")

/** 43 characters of base64url without padding: a SHA-256 digest. */
export const CommandHash = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]{43}$/),
  Schema.annotations({ ...rule("must be exactly 43 characters of A-Z a-z 0-9 _ -"), identifier: "CommandHash" })
)

/** Body of Jobs_ResolveBountyDispute (spec §4.2); units are decimal strings, compared as bigint. */
export const ResolveBountyDisputeRequest = StrictStruct({
  resolution: DisputeResolution,
  unitsToProvider: Units,
  unitsToClient: Units,
  reason: WireString(20, 10000),
  expectedVersion: Version,
  dryRun: Schema.optionalWith(Schema.Boolean, { default: () => true, exact: true }),
  confirmation: Schema.optionalWith(WireString(0, 500), { exact: true }),
  approvedCommandHash: Schema.optionalWith(CommandHash, { exact: true })
}).annotations({ identifier: "ResolveBountyDisputeRequest" })
export type ResolveBountyDisputeRequest = typeof ResolveBountyDisputeRequest.Type

/** The dry-run answer: the exact command an operator approves by echoing `commandHash` and `confirmation`. */
export const DisputeResolutionPreview = Schema.Struct({
  kind: Schema.Literal("PREVIEW"),
  bountyId: Uuid,
  disputeId: Uuid,
  expectedVersion: Version,
  commandHash: CommandHash,
  confirmation: Schema.String.pipe(Schema.maxLength(500)),
  resolution: DisputeResolution,
  unitsToProvider: Units,
  unitsToClient: Units,
  network: Schema.String.pipe(Schema.maxLength(240)),
  contractAddress: Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/)),
  walletPublicId: Uuid,
  decisionDigest: Schema.String.pipe(Schema.pattern(/^0x[0-9a-f]{64}$/))
}).annotations({ identifier: "DisputeResolutionPreview" })

/** The applied command. */
export const DisputeResolutionAccepted = Schema.Struct({
  kind: Schema.Literal("ACCEPTED"),
  bountyId: Uuid,
  disputeId: Uuid,
  commandId: Uuid,
  commandHash: CommandHash,
  auditEventId: Uuid,
  transactionIntentId: Uuid,
  bountyVersion: Version,
  disputeVersion: Version,
  state: DisputeResolutionState,
  unitsToProvider: Units,
  unitsToClient: Units
}).annotations({ identifier: "DisputeResolutionAccepted" })

/** 202 data of Jobs_ResolveBountyDispute, discriminated by `kind`. */
export const DisputeResolutionResult = Schema.Union(DisputeResolutionPreview, DisputeResolutionAccepted).annotations({
  identifier: "DisputeResolutionResult"
})
export type DisputeResolutionResult = typeof DisputeResolutionResult.Type

// ---- Bounties from posting to payout (docs/bounties.md)

/** A bounty's state (migration 0056; docs/bounties.md shows the moves). */
export const BountyState = Schema.Literal(
  "FUNDING_PENDING", "OPEN", "CLAIMED", "SUBMITTED", "REJECTED", "DISPUTED",
  "RELEASE_PENDING", "REFUND_PENDING", "RELEASED", "REFUNDED", "CANCELLED"
)
export type BountyState = typeof BountyState.Type

const Caip2 = Schema.String.pipe(
  Schema.pattern(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/),
  Schema.annotations({ ...rule("must be a CAIP-2 network id such as eip155:8453"), identifier: "Caip2" })
)
const Caip19 = Schema.String.pipe(
  Schema.pattern(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}\/[-a-z0-9]{3,8}:[-.%a-zA-Z0-9]{1,128}$/),
  Schema.annotations({ ...rule("must be a CAIP-19 asset id such as eip155:8453/erc20:0x…"), identifier: "Caip19" })
)
const Address = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/), Schema.annotations(rule("must be a 0x-prefixed 20-byte hex address")))
const Slug = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9._+-]{0,63}$/),
  Schema.annotations(rule("must be 1-64 characters of a-z 0-9 . _ + - starting with a letter or digit"))
)
const slugsRule = (max: number) => `must be at most ${max} slugs, each 1-64 characters of a-z 0-9 . _ + - starting with a letter or digit`
const Sha256Hex = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/), Schema.annotations(rule("must be 64 lower-case hex digits (SHA-256)")))

/** Body of Jobs_CreateBounty. */
export const CreateBountyRequest = StrictStruct({
  workspaceId: Uuid,
  title: WireString(3, 200),
  description: WireString(1, 20000),
  acceptanceCriteria: WireString(1, 20000),
  rewardUnits: Units,
  asset: Caip19,
  network: Caip2,
  deadline: DateTimeZ,
  requiredSkills: Schema.optionalWith(Schema.Array(Slug).pipe(Schema.maxItems(20), Schema.annotations(rule(slugsRule(20)))), {
    default: () => [],
    exact: true
  }),
  requiredProtocols: Schema.optionalWith(
    Schema.Array(Slug).pipe(Schema.maxItems(10), Schema.annotations(rule(slugsRule(10)))),
    { default: () => [], exact: true }
  )
}).annotations({ identifier: "CreateBountyRequest" })
export type CreateBountyRequest = typeof CreateBountyRequest.Type

/** Body of the versioned bounty commands without other input (Jobs_CancelBounty, Jobs_AcceptBountyDelivery). */
export const BountyVersionRequest = StrictStruct({ expectedVersion: Version }).annotations({ identifier: "BountyVersionRequest" })

/** Body of Jobs_FundBounty. */
export const FundBountyRequest = StrictStruct({
  expectedVersion: Version,
  funderAddress: Schema.optionalWith(Address, { exact: true })
}).annotations({ identifier: "FundBountyRequest" })

/** Body of Jobs_ClaimBounty. */
export const ClaimBountyRequest = StrictStruct({ expectedVersion: Version, agentId: Uuid }).annotations({
  identifier: "ClaimBountyRequest"
})

/** One delivered artifact: named, identified by its SHA-256 digest (the file itself stays with the claimant). */
export const BountyArtifact = StrictStruct({
  name: WireString(1, 200),
  sha256: Sha256Hex,
  mediaType: Schema.optionalWith(WireString(3, 200), { exact: true }),
  url: Schema.optionalWith(HttpUrl(2000), { exact: true })
}).annotations({ identifier: "BountyArtifact" })

/** Body of Jobs_SubmitBountyDelivery. */
export const SubmitBountyDeliveryRequest = StrictStruct({
  expectedVersion: Version,
  message: WireString(1, 20000),
  links: Schema.optionalWith(Schema.Array(HttpUrl(2000)).pipe(Schema.maxItems(20), Schema.annotations(rule("at most 20 links"))), {
    default: () => [],
    exact: true
  }),
  artifacts: Schema.optionalWith(Schema.Array(BountyArtifact).pipe(Schema.maxItems(50), Schema.annotations(rule("at most 50 artifacts"))), {
    default: () => [],
    exact: true
  })
}).annotations({ identifier: "SubmitBountyDeliveryRequest" })
export type SubmitBountyDeliveryRequest = typeof SubmitBountyDeliveryRequest.Type

/** Body of Jobs_RejectBountyDelivery. */
export const RejectBountyDeliveryRequest = StrictStruct({
  expectedVersion: Version,
  reasons: Schema.Array(WireString(3, 2000)).pipe(
    Schema.minItems(1),
    Schema.maxItems(20),
    Schema.annotations(rule("must be 1-20 reasons"))
  )
}).annotations({ identifier: "RejectBountyDeliveryRequest" })

/** Body of Jobs_OpenBountyDispute. */
export const OpenBountyDisputeRequest = StrictStruct({ expectedVersion: Version, reason: WireString(20, 10000) }).annotations({
  identifier: "OpenBountyDisputeRequest"
})

/** Path of the operations on one bounty. */
export const BountyPath = Schema.Struct({ bountyId: Uuid })

/** Path of Jobs_ListBounties. */
export const WorkspaceBountiesPath = Schema.Struct({ workspaceId: Uuid })

/** Query of Jobs_ListBounties. */
export const ListBountiesQuery = Schema.Struct({
  side: Schema.optionalWith(Schema.Literal("POSTED", "CLAIMED").annotations(rule("must be POSTED or CLAIMED")), { exact: true }),
  state: Schema.optionalWith(BountyState.annotations(rule("must be a bounty state")), { exact: true }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true }),
  limit: QueryInt({ min: 1, max: 100, default: 25 })
})

/**
 * A bounty's claim: the agent and its workspace, when, until when it must deliver, and where it is
 * paid (the times and address are null only on bounties claimed before claims recorded them).
 */
export const BountyClaim = Schema.Struct({
  workspaceId: Uuid,
  agentId: Uuid,
  claimedAt: Schema.NullOr(DateTimeZ),
  deliveryDueAt: Schema.NullOr(DateTimeZ),
  payoutAddress: Schema.NullOr(Schema.String)
}).annotations({ identifier: "BountyClaim" })

/** A bounty's last delivery. */
export const BountyDelivery = Schema.Struct({
  message: Schema.String,
  links: Schema.Array(Schema.String),
  artifacts: Schema.Array(Schema.Struct({
    name: Schema.String,
    sha256: Schema.String,
    mediaType: Schema.optionalWith(Schema.String, { exact: true }),
    url: Schema.optionalWith(Schema.String, { exact: true })
  })),
  submittedAt: DateTimeZ
}).annotations({ identifier: "BountyDelivery" })

/**
 * A bounty (docs/bounties.md): what the poster asks for and pays (`rewardUnits` of `asset` on
 * `network`, escrowed in `escrowContractAddress`), its state and version, its claim, delivery,
 * rejection, open dispute, and the transaction intents that fund and pay it out.
 */
export const Bounty = Schema.Struct({
  id: Uuid,
  workspaceId: Uuid,
  title: Schema.String,
  description: Schema.String,
  acceptanceCriteria: Schema.String,
  state: BountyState,
  version: Version,
  rewardUnits: Units,
  asset: Schema.NullOr(Schema.String),
  network: Schema.String,
  escrowContractAddress: Schema.String,
  deadline: Schema.NullOr(DateTimeZ),
  requiredSkills: Schema.Array(Schema.String),
  requiredProtocols: Schema.Array(Schema.String),
  fundingTransactionIntentId: Schema.NullOr(Uuid),
  approvalTransactionIntentId: Schema.NullOr(Uuid),
  fundedAt: Schema.NullOr(DateTimeZ),
  fundingTransactionHash: Schema.NullOr(Schema.String),
  claim: Schema.NullOr(BountyClaim),
  delivery: Schema.NullOr(BountyDelivery),
  rejectionReasons: Schema.NullOr(Schema.Array(Schema.String)),
  rejectedAt: Schema.NullOr(DateTimeZ),
  disputeId: Schema.NullOr(Uuid),
  disputedAt: Schema.NullOr(DateTimeZ),
  acceptedAt: Schema.NullOr(DateTimeZ),
  payoutTransactionIntentId: Schema.NullOr(Uuid),
  unitsToProvider: Schema.NullOr(Units),
  unitsToClient: Schema.NullOr(Units),
  settledAt: Schema.NullOr(DateTimeZ),
  closedAt: Schema.NullOr(DateTimeZ),
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "Bounty" })
export type Bounty = typeof Bounty.Type

/** 202 data of Jobs_FundBounty: the bounty and the intents the poster signs, in order (approve first when needed). */
export const FundBountyResult = Schema.Struct({
  bounty: Bounty,
  transactionIntents: Schema.Array(TransactionIntent)
}).annotations({ identifier: "FundBountyResult" })
