/**
 * Transaction intents: one resource for every chain transaction the service prepares, whoever
 * signs it (the owner's wallet, or the platform's signer). The wire shape of
 * `Wallets_GetTransactionIntent` and `Wallets_SubmitTransactionIntent`; chain values are decimal
 * strings (spec §1.1), networks CAIP-2 ids, addresses EIP-55.
 */
import { Schema } from "effect"
import { AnyJson, DateTimeZ, Units, Uuid, Version } from "./common.js"

/**
 * Intent states: PREPARED (built, not yet offered for signature) → AWAITING_SIGNATURE →
 * SUBMITTED (broadcast; its hash known) → OBSERVED (in a canonical block) → CONFIRMED (the
 * network's confirmation depth reached); or FAILED (reverted, refused, or broadcast rejected),
 * REPLACED (another transaction took its nonce), EXPIRED (not signed in time). A reorg that
 * drops its block moves OBSERVED back to SUBMITTED.
 */
export const TransactionIntentState = Schema.Literal(
  "PREPARED",
  "AWAITING_SIGNATURE",
  "SUBMITTED",
  "OBSERVED",
  "CONFIRMED",
  "FAILED",
  "REPLACED",
  "EXPIRED"
)
export type TransactionIntentState = typeof TransactionIntentState.Type

/** Who signs an intent: the owner's own wallet (signed raw transaction submitted by the owner), or the platform's signer. */
export const TransactionIntentSigner = Schema.Literal("OWNER", "PLATFORM")
export type TransactionIntentSigner = typeof TransactionIntentSigner.Type

const Address = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/))
const Hex = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]*$/))

/** The decoded call beside the calldata: the function, its signature and its arguments (integers as decimal strings). */
export const DecodedCall = Schema.Struct({
  functionName: Schema.String,
  /** The canonical signature, e.g. `register(string)`. */
  signature: Schema.String,
  args: Schema.Array(AnyJson)
}).annotations({ identifier: "DecodedCall" })
export type DecodedCall = typeof DecodedCall.Type

/** EIP-1559 fee estimate, wei per gas (decimal strings), and the gas limit. */
export const FeeEstimate = Schema.Struct({
  gasLimit: Units,
  maxFeePerGas: Units,
  maxPriorityFeePerGas: Units
}).annotations({ identifier: "FeeEstimate" })

/** A transaction intent. */
export const TransactionIntent = Schema.Struct({
  id: Uuid,
  /** CAIP-2. */
  network: Schema.String,
  state: TransactionIntentState,
  signer: TransactionIntentSigner,
  from: Address,
  to: Address,
  /** ABI-encoded calldata. */
  data: Hex,
  call: DecodedCall,
  /** Wei sent with the call. */
  value: Units,
  fees: FeeEstimate,
  /** The sender's nonce the transaction must use (null until known). */
  nonce: Schema.NullOr(Schema.Int),
  /**
   * The serialized unsigned EIP-1559 transaction (hex): what the owner's wallet signs for an OWNER
   * intent (chain id, nonce, fees, gas limit, recipient, value, data, empty access list); null
   * while the nonce is not known (a PLATFORM intent before it is signed).
   */
  unsignedTransaction: Schema.NullOr(Hex),
  /** EIP-712 typed data to sign beside the transaction (an arbiter's decision), or null. */
  typedData: Schema.NullOr(AnyJson),
  transactionHash: Schema.NullOr(Hex),
  blockNumber: Schema.NullOr(Units),
  blockHash: Schema.NullOr(Hex),
  explorerUrl: Schema.NullOr(Schema.String),
  failureCode: Schema.NullOr(Schema.String),
  expiresAt: DateTimeZ,
  createdAt: DateTimeZ,
  submittedAt: Schema.NullOr(DateTimeZ),
  observedAt: Schema.NullOr(DateTimeZ),
  confirmedAt: Schema.NullOr(DateTimeZ),
  updatedAt: DateTimeZ,
  version: Version
}).annotations({ identifier: "TransactionIntent" })
export type TransactionIntent = typeof TransactionIntent.Type
