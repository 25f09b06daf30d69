/** Token operations, admin view (spec §2.13, §3, §4.2). */
import { Schema } from "effect"
import { DateTimeZ, Units, Uuid, Version } from "../../../schema/common.js"
import { Meta } from "../../../schema/envelope.js"

/** Token operation kinds (spec §2.13). */
export const TokenOperationKind = Schema.Literal(
  "BUYBACK", "BURN", "REWARD", "ALLOCATION", "DISTRIBUTION", "COMMISSION_PAYOUT", "TREASURY_TRANSFER", "LIQUIDITY"
)

/** Token operation states (spec §3). */
export const TokenOperationState = Schema.Literal(
  "PLANNED", "APPROVAL_REQUIRED", "APPROVED", "BUILD_PENDING", "SUBMITTED", "CONFIRMED", "RECONCILED", "REVERSED",
  "CANCELLED", "FAILED", "MANUAL_REVIEW"
)

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
