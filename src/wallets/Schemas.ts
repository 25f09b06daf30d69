/** Wallets area (spec §2.8, §2.14, §4.3): wallet policies and wallet public profiles. */
import { Schema } from "effect"
import { DateTimeZ, StrictStruct, Uuid, Version, WireString } from "../../schema/common.js"

/** Wallet policy states (spec §3). */
export const WalletPolicyState = Schema.Literal("PREPARED", "DISPATCHING", "OBSERVING", "MANUAL_REVIEW", "COMPLETE", "CANCELLED")
export type WalletPolicyState = typeof WalletPolicyState.Type

/** The states a wallet policy can be cancelled from (Wallets_CancelWalletPolicy). */
export const CancellableWalletPolicyStates: ReadonlyArray<WalletPolicyState> = ["PREPARED", "DISPATCHING", "OBSERVING", "MANUAL_REVIEW"]

const NullableText = (max: number) => Schema.NullOr(Schema.String.pipe(Schema.maxLength(max)))

/** Wallet policy (spec §2.8). */
export const WalletPolicy = Schema.Struct({
  policyId: Uuid,
  walletPublicId: Uuid,
  phase: Schema.Literal("CREATE", "ATTACH"),
  state: WalletPolicyState,
  version: Version,
  providerPolicyId: NullableText(300),
  candidateProviderPolicyId: NullableText(300),
  failureCode: NullableText(100),
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ,
  completedAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "WalletPolicy" })
export type WalletPolicy = typeof WalletPolicy.Type

/**
 * Body of Wallets_CancelWalletPolicy (spec §4.3): the version the caller saw, why,
 * and the confirmation phrase `CANCEL <policyId>`.
 */
export const CancelWalletPolicyRequest = StrictStruct({
  expectedVersion: Version,
  reason: WireString(20, 4000),
  confirmation: WireString(10, 100)
}).annotations({ identifier: "CancelWalletPolicyRequest" })

/** The confirmation phrase that proves the intent to cancel one policy: `CANCEL <policyId>` (lowercase id). */
export const cancellationPhrase = (policyId: string): string => `CANCEL ${policyId.toLowerCase()}`

/** Wallet profile visibility (spec §3). */
export const WalletProfileVisibility = Schema.Literal("PRIVATE", "PUBLIC")

/** Wallet public profile (spec §2.14). `followerCount` is a digit string without leading zero. */
export const WalletPublicProfile = Schema.Struct({
  publicId: Uuid,
  walletPublicId: Schema.NullOr(Uuid),
  network: Schema.Struct({ publicId: Uuid, key: Schema.String, family: Schema.String, displayName: Schema.String }),
  address: Schema.String,
  displayName: Schema.NullOr(Schema.String),
  bio: Schema.NullOr(Schema.String),
  visibility: WalletProfileVisibility,
  followerCount: Schema.String.pipe(Schema.pattern(/^(?:0|[1-9][0-9]*)$/)),
  following: Schema.Boolean,
  ownedByViewer: Schema.Boolean,
  favoriteCollectionVisibility: WalletProfileVisibility,
  version: Version,
  publishedAt: Schema.NullOr(DateTimeZ),
  updatedAt: DateTimeZ
}).annotations({ identifier: "WalletPublicProfile" })
export type WalletPublicProfile = typeof WalletPublicProfile.Type
