/** Launch area (spec §2.4, §3, §4.3): launch runs that prepare chain transactions. */
import { Schema } from "effect"
import { DateTimeZ, QueryInt, rule, StrictStruct, Uuid, Version, WireString } from "../../schema/common.js"

/** Launch run states (spec §3). */
export const LaunchRunState = Schema.Literal(
  "CREATED",
  "PREPARING",
  "AWAITING_FUNDING",
  "AWAITING_SIGNATURE",
  "EXECUTION_PENDING",
  "SUBMITTED",
  "OBSERVED",
  "CONFIRMED",
  "COMPLETED",
  "RETRYABLE_FAILURE",
  "TERMINAL_FAILURE",
  "MANUAL_REVIEW",
  "CANCELLED"
)
export type LaunchRunState = typeof LaunchRunState.Type

/** Launch venues (spec §2.4). */
export const LaunchVenue = Schema.Literal("REGISTRY_GENESIS", "LAUNCHPAD_FUN", "BROKER_CHAIN", "EXTERNAL_IMPORT")

/** One step of a launch run (spec §2.4); `state` is an open string (spec §3). */
export const LaunchStep = Schema.Struct({
  step: Schema.String,
  state: Schema.String,
  attemptCount: Schema.Int,
  providerReference: Schema.NullOr(Schema.String),
  errorCode: Schema.NullOr(Schema.String),
  startedAt: Schema.NullOr(DateTimeZ),
  completedAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "LaunchStep" })

/** Launch run (spec §2.4). */
export const LaunchRun = Schema.Struct({
  id: Uuid,
  launchDraftId: Uuid,
  venue: LaunchVenue,
  state: LaunchRunState,
  transactionIntentId: Schema.NullOr(Uuid),
  providerReference: Schema.NullOr(Schema.String),
  expectedAssetLocator: Schema.NullOr(Schema.String),
  observedAssetId: Schema.NullOr(Schema.String),
  failureCode: Schema.NullOr(Schema.String),
  failureSummary: Schema.NullOr(Schema.String),
  attemptCount: Schema.Int,
  version: Version,
  requestedAt: DateTimeZ,
  submittedAt: Schema.NullOr(DateTimeZ),
  observedAt: Schema.NullOr(DateTimeZ),
  confirmedAt: Schema.NullOr(DateTimeZ),
  completedAt: Schema.NullOr(DateTimeZ),
  updatedAt: DateTimeZ,
  steps: Schema.Array(LaunchStep)
}).annotations({ identifier: "LaunchRun" })
export type LaunchRun = typeof LaunchRun.Type

/** Body of Launch_MaterializeLaunchTransaction (spec §4.3): the version the caller read. */
export const MaterializeLaunchTransactionRequest = StrictStruct({ expectedVersion: Version }).annotations({
  identifier: "MaterializeLaunchTransactionRequest"
})

/** A CAIP-2 chain id (`eip155:8453`). */
export const Caip2 = Schema.String.pipe(
  Schema.pattern(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/),
  Schema.annotations({ ...rule("must be a CAIP-2 chain id (namespace:reference, e.g. eip155:8453)"), description: "CAIP-2 chain id" })
)

/** An EVM address: `0x` and 40 hex digits (any case; stored EIP-55). */
export const EvmAddress = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{40}$/),
  Schema.annotations({ ...rule("must be an EVM address (0x and 40 hex digits)"), description: "EVM address, 0x and 40 hex digits" })
)

/** An ERC-721 token id in decimal digits (below 2^256). */
export const TokenId = Schema.String.pipe(
  Schema.pattern(/^(?:0|[1-9][0-9]{0,77})$/),
  Schema.filter((s) => BigInt(s) < 2n ** 256n),
  Schema.annotations({ ...rule("must be a token id in decimal digits, below 2^256"), description: "token id, decimal" })
)

/**
 * Launch draft (ours; spec §2.4 names `launchDraftId`): what a launch run launches. `agentId`
 * is an agent operated by `workspaceId`; `network` a CAIP-2 id; `signerAddress` the owner's
 * wallet (EIP-55) that signs the run's transaction and receives the registry token; `tokenId`
 * (EXTERNAL_IMPORT only, else null) the existing registry token to attach, and
 * `importMessage` (EXTERNAL_IMPORT only) the text its owner signs (EIP-191) to start the run.
 */
export const LaunchDraft = Schema.Struct({
  id: Uuid,
  workspaceId: Uuid,
  agentId: Uuid,
  venue: LaunchVenue,
  network: Schema.String,
  signerAddress: Schema.String,
  tokenId: Schema.NullOr(Schema.String),
  importMessage: Schema.NullOr(Schema.String),
  createdAt: DateTimeZ
}).annotations({ identifier: "LaunchDraft" })
export type LaunchDraft = typeof LaunchDraft.Type

/** Body of Launch_CreateLaunchDraft. */
export const CreateLaunchDraftRequest = StrictStruct({
  workspaceId: Uuid,
  agentId: Uuid,
  venue: LaunchVenue.annotations(rule("must be REGISTRY_GENESIS, LAUNCHPAD_FUN, BROKER_CHAIN or EXTERNAL_IMPORT")),
  network: Caip2,
  signerAddress: EvmAddress,
  tokenId: Schema.optionalWith(Schema.NullOr(TokenId), { exact: true })
}).annotations({ identifier: "CreateLaunchDraftRequest" })
export type CreateLaunchDraftRequest = typeof CreateLaunchDraftRequest.Type

/** An EIP-191 signature: `0x` and 130 hex digits. */
export const EvmSignature = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{130}$/),
  Schema.annotations({ ...rule("must be an EIP-191 signature (0x and 130 hex digits)"), description: "EIP-191 signature" })
)

/** Body of Launch_StartLaunchRun: `signature` of the draft's `importMessage` (EXTERNAL_IMPORT only). */
export const StartLaunchRunRequest = StrictStruct({
  signature: Schema.optionalWith(EvmSignature, { exact: true })
}).annotations({ identifier: "StartLaunchRunRequest" })

/** Query of Launch_ListLaunchRuns. */
export const ListLaunchRunsQuery = Schema.Struct({
  workspaceId: Uuid,
  state: Schema.optionalWith(LaunchRunState.annotations(rule("must be a launch run state (spec §3)")), { exact: true }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true }),
  limit: QueryInt({ min: 1, max: 100, default: 25 })
})
