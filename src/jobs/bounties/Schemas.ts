/** Bounty dispute resolution (spec §3, §4.2: Jobs_ResolveBountyDispute). */
import { Schema } from "effect"
import { rule, StrictStruct, Units, Uuid, Version, WireString } from "../../../schema/common.js"

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
