/** Token operations, admin view (spec §2.13, §3, §4.2). */
import { Schema } from "effect"
import { DateTimeZ, rule, StrictStruct, Units, Uuid, Version, WireString } from "../../../schema/common.js"
import { Meta } from "../../../schema/envelope.js"

/** Token operation kinds (spec §2.13). */
export const TokenOperationKind = Schema.Literal(
  "BUYBACK", "BURN", "REWARD", "ALLOCATION", "DISTRIBUTION", "COMMISSION_PAYOUT", "TREASURY_TRANSFER", "LIQUIDITY"
)
export type TokenOperationKind = typeof TokenOperationKind.Type

/** Token operation states (spec §3). */
export const TokenOperationState = Schema.Literal(
  "PLANNED", "APPROVAL_REQUIRED", "APPROVED", "BUILD_PENDING", "SUBMITTED", "CONFIRMED", "RECONCILED", "REVERSED",
  "CANCELLED", "FAILED", "MANUAL_REVIEW"
)
export type TokenOperationState = typeof TokenOperationState.Type

/** Token operation (spec §2.13); `units`/`quoteUnits` are decimal strings of chain units. */
export const TokenOperation = Schema.Struct({
  id: Uuid,
  kind: TokenOperationKind,
  state: TokenOperationState,
  networkId: Uuid,
  network: Schema.String,
  assetId: Uuid,
  symbol: Schema.NullOr(Schema.String),
  decimals: Schema.NullOr(Schema.Int),
  units: Units,
  quoteAssetId: Schema.NullOr(Uuid),
  quoteUnits: Schema.NullOr(Units),
  source: Schema.NullOr(Schema.String),
  destination: Schema.NullOr(Schema.String),
  transactionIntentPublicId: Schema.NullOr(Uuid),
  journalEntryId: Schema.NullOr(Uuid),
  evidenceRef: Schema.NullOr(Schema.String),
  policyVersion: Schema.Int.pipe(Schema.positive()),
  publicSummary: Schema.String,
  failureCode: Schema.NullOr(Schema.String),
  requestedAt: DateTimeZ,
  approvedAt: Schema.NullOr(DateTimeZ),
  reconciledAt: Schema.NullOr(DateTimeZ),
  version: Version
}).annotations({ identifier: "TokenOperation" })
export type TokenOperation = typeof TokenOperation.Type

/** 200 body of Growth_ListAdminTokenOperations: `{data, asOf, meta}` (`asOf` = when the list was read). */
export const TokenOperationList = Schema.Struct({
  data: Schema.Array(TokenOperation),
  asOf: DateTimeZ,
  meta: Meta
}).annotations({ identifier: "TokenOperationList" })

/** Positive units (a decimal string of 1 to 78 digits, no leading zero). */
const PositiveUnits = Units.pipe(
  Schema.filter((u) => u > 0n, rule("must be a decimal string of a positive integer (units)"))
)

const optionalText = (min: number, max: number) =>
  Schema.optionalWith(Schema.NullOr(WireString(min, max)), { default: () => null, exact: true })

/**
 * Body of Growth_CreateTokenOperation (spec §2.13, §4.2): what to move, where, and why.
 *
 * - `network`: a CAIP-2 id (`eip155:8453`) or a directory network's id (uuid); it must be a
 *   configured chain (`CHAIN_RPC_URLS`).
 * - `assetId`: an asset's id (uuid) on that network or a CAIP-19 id (`eip155:8453/erc20:0x…`);
 *   it must be the network's configured treasury token (`CHAIN_CONTRACTS` role `treasuryToken`).
 * - `units`: chain units of the asset (decimal string, > 0).
 * - `destination`: the recipient's EVM address, required for every kind but BURN (which sends to
 *   the dead address `0x…dEaD`).
 * - `source`: a label of the paying account (default: the platform signer's CAIP-10 account).
 */
export const CreateTokenOperationRequest = StrictStruct({
  kind: TokenOperationKind,
  network: WireString(3, 64),
  assetId: WireString(3, 200),
  units: PositiveUnits,
  destination: optionalText(1, 200),
  source: optionalText(1, 200),
  publicSummary: WireString(3, 500),
  evidenceRef: optionalText(1, 500)
}).annotations({ identifier: "CreateTokenOperationRequest" })
export type CreateTokenOperationRequest = typeof CreateTokenOperationRequest.Type

/** Body of Growth_ApproveTokenOperation and Growth_CancelTokenOperation: the version the caller read. */
export const TokenOperationCommandRequest = StrictStruct({
  expectedVersion: Version
}).annotations({ identifier: "TokenOperationCommandRequest" })
export type TokenOperationCommandRequest = typeof TokenOperationCommandRequest.Type

/** Path of the commands on one token operation. */
export const TokenOperationPath = Schema.Struct({ operationId: Uuid })
