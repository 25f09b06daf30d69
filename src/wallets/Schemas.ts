/** Wallets area (spec §2.8, §2.14, §4.3): wallet policies and wallet public profiles. */
import { Schema } from "effect"
import { DateTimeZ, QueryInt, rule, StrictStruct, Units, Uuid, Version, WireString } from "../../schema/common.js"

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

// ---- registration (Wallets_RegisterWallet, Wallets_ListWallets)

/** CAIP-10 account of an EVM network: `eip155:<chainId>:0x<40 hex>`. */
export const EvmAccountId = Schema.String.pipe(
  Schema.maxLength(100),
  Schema.pattern(/^eip155:[1-9][0-9]{0,15}:0x[0-9a-fA-F]{40}$/),
  Schema.annotations({
    ...rule("must be a CAIP-10 EVM account eip155:<chainId>:0x<40 hex digits>"),
    description: "CAIP-10 account on an EVM network: eip155:<chainId>:0x<40 hex digits>"
  })
)

/** A 65-byte ECDSA signature (`r || s || v`), `0x` and 130 hex digits. */
export const EvmSignature = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{130}$/),
  Schema.annotations({
    ...rule("must be a 65-byte signature: 0x and 130 hex digits"),
    description: "EIP-191 personal_sign signature: 0x and 130 hex digits"
  })
)

/**
 * Body of Wallets_RegisterWallet: the workspace, the CAIP-10 account, and its proof: an EIP-4361
 * (Sign-In with Ethereum) message for this service signed by the account's address.
 */
export const RegisterWalletRequest = StrictStruct({
  workspaceId: Uuid,
  account: EvmAccountId,
  message: WireString(1, 4000),
  signature: EvmSignature
}).annotations({ identifier: "RegisterWalletRequest" })

/**
 * A wallet: an address on a network (CAIP-2 `network`, CAIP-10 `account`, EIP-55 `address` for EVM),
 * registered for a workspace (null for wallets recorded before registration) by the account that
 * owns it; `proofMethod` `SIWE` with `provenAt` when control was proven by a signed message.
 */
export const Wallet = Schema.Struct({
  walletPublicId: Uuid,
  workspaceId: Schema.NullOr(Uuid),
  network: Schema.String,
  account: Schema.String,
  address: Schema.String,
  proofMethod: Schema.NullOr(Schema.Literal("SIWE")),
  provenAt: Schema.NullOr(DateTimeZ),
  createdAt: DateTimeZ
}).annotations({ identifier: "Wallet" })
export type Wallet = typeof Wallet.Type

/** Query of Wallets_ListWallets: the workspace, `limit` (1-100, default 25) and the signed `cursor`. */
export const ListWalletsQuery = Schema.Struct({
  workspaceId: Uuid,
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true })
})

// ---- public profiles

/**
 * Body of Wallets_UpdateWalletProfile (PUT: the whole configuration). `expectedVersion` is the
 * profile's current version, or absent/null to create the wallet's first profile.
 */
export const UpdateWalletProfileRequest = StrictStruct({
  expectedVersion: Schema.optionalWith(Schema.NullOr(Version), { exact: true }),
  displayName: Schema.NullOr(WireString(1, 100)),
  bio: Schema.NullOr(WireString(1, 1000)),
  visibility: WalletProfileVisibility,
  favoriteCollectionVisibility: WalletProfileVisibility
}).annotations({ identifier: "UpdateWalletProfileRequest" })

/** Path of a profile by locator: a network (CAIP-2 id, or its key such as `base`) and an address. */
export const WalletProfilePath = Schema.Struct({
  network: WireString(1, 100),
  address: WireString(1, 100)
})

// ---- policies

const CaipNetwork = Schema.String.pipe(
  Schema.pattern(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/),
  Schema.annotations({ ...rule("must be a CAIP-2 network id"), description: "CAIP-2 network id" })
)
const EvmAddress = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{40}$/),
  Schema.annotations({ ...rule("must be an address: 0x and 40 hex digits"), description: "EVM address" })
)
/** A method: a 4-byte selector (`0xa9059cbb`) or a function signature (`transfer(address,uint256)`). */
const MethodRule = Schema.String.pipe(
  Schema.maxLength(300),
  Schema.pattern(/^(?:0x[0-9a-fA-F]{8}|[A-Za-z_$][A-Za-z0-9_$]*\([A-Za-z0-9_,\[\]() ]*\))$/),
  Schema.annotations({
    ...rule("must be a 4-byte selector (0x and 8 hex digits) or a function signature such as transfer(address,uint256)"),
    description: "4-byte selector or function signature"
  })
)

/**
 * What a COMPLETE policy lets the platform's signer sign from the wallet (spec §2.8). Every
 * rule is optional; an absent (or null) rule does not restrict. Limits are units (decimal
 * strings): an intent's units are its native value plus, for ERC-20 `transfer`, `transferFrom`
 * and `approve`, the amount argument.
 */
export const WalletPolicyRules = StrictStruct({
  allowedNetworks: Schema.optionalWith(Schema.NullOr(Schema.Array(CaipNetwork).pipe(Schema.maxItems(50))), { exact: true }),
  allowedContracts: Schema.optionalWith(Schema.NullOr(Schema.Array(EvmAddress).pipe(Schema.maxItems(200))), { exact: true }),
  allowedMethods: Schema.optionalWith(Schema.NullOr(Schema.Array(MethodRule).pipe(Schema.maxItems(200))), { exact: true }),
  perTransactionLimit: Schema.optionalWith(Schema.NullOr(Units), { exact: true }),
  perDayLimit: Schema.optionalWith(Schema.NullOr(Units), { exact: true })
}).annotations({ identifier: "WalletPolicyRules" })
export type WalletPolicyRules = typeof WalletPolicyRules.Type

/**
 * Body of Wallets_CreateWalletPolicy: CREATE a new policy at the custody provider, or ATTACH one
 * the provider already holds (`providerPolicyId`, required for ATTACH, refused for CREATE), with
 * the rules the platform's signer enforces.
 */
export const CreateWalletPolicyRequest = StrictStruct({
  phase: Schema.Literal("CREATE", "ATTACH"),
  providerPolicyId: Schema.optionalWith(Schema.NullOr(WireString(1, 300)), { exact: true }),
  rules: WalletPolicyRules
}).annotations({ identifier: "CreateWalletPolicyRequest" })
