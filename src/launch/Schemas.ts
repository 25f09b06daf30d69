/** Launch area (spec §2.4, §3, §4.3): launch runs that prepare chain transactions. */
import { Schema } from "effect"
import { DateTimeZ, StrictStruct, Uuid, Version } from "../../schema/common.js"

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
