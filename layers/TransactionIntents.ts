/**
 * Transaction intents (schema/transactionIntents.ts): the one way the service prepares, signs,
 * broadcasts and follows a chain transaction, shared by every area that moves value on a chain
 * (launch runs, bounty escrow, token operations, wallet policies). An intent names what it is
 * for (`purpose`: a kind and the id of the area's resource); when the block watcher moves it
 * (observed, confirmed, failed, reorged out) it calls that kind's {@link IntentOutcomeHandler},
 * in the same transaction as the intent's change, so each outcome is applied exactly once.
 *
 * Before the platform's signer signs an intent, {@link IntentPolicy} checks it (the wallets
 * area's policies, spec §2.8).
 */
import type { SqlClient } from "@effect/sql"
import { Context, type Effect } from "effect"
import type { Abi, Address, Hex, TransactionReceipt, TypedDataDefinition } from "viem"
import type { ChainRpcUnavailable, ConfigurationMissing, PolicyViolation } from "../schema/errors.js"
import type { TransactionIntent, TransactionIntentSigner, TransactionIntentState } from "../schema/transactionIntents.js"
import type { Ids } from "./Ids.js"

/** What an intent is for: the kind (an area's name for its resource, e.g. `launch-run`) and the resource's id. */
export interface IntentPurpose {
  readonly kind: string
  readonly id: string
}

/** What to prepare: a contract call on a configured EVM network. */
export interface PrepareIntent {
  /** CAIP-2 id of a configured network. */
  readonly network: string
  readonly signer: TransactionIntentSigner
  /** The sender: the owner's wallet address, or the platform signer's (default for PLATFORM). */
  readonly from?: Address
  readonly to: Address
  readonly abi: Abi
  readonly functionName: string
  readonly args: ReadonlyArray<unknown>
  /** Wei sent with the call; default 0. */
  readonly value?: bigint
  /** EIP-712 typed data shown beside the transaction (e.g. an arbiter's decision), if any. */
  readonly typedData?: TypedDataDefinition
  readonly purpose: IntentPurpose
  /** The workspace the intent belongs to (null for the platform's own). */
  readonly workspaceId: string | null
  /** The account that may read and submit an OWNER intent (null for PLATFORM). */
  readonly ownerAccountId: string | null
  /** How long an OWNER intent waits for its signature; default one hour. */
  readonly ttlSeconds?: number
}

/** A change the watcher (or a submission) made to an intent, given to its purpose's handler. */
export interface IntentEvent {
  readonly intent: TransactionIntent
  readonly purpose: IntentPurpose
  /** The state it moved to; SUBMITTED after OBSERVED means its block left the canonical chain. */
  readonly state: TransactionIntentState
  /** The receipt, for OBSERVED, CONFIRMED and a reverted FAILED. */
  readonly receipt: TransactionReceipt | null
}

/**
 * An area's reaction to its intents' changes, run in the transaction that records the change
 * (so it is applied exactly once). Failing it is a defect: the change is retried by the watcher.
 */
export type IntentOutcomeHandler = (event: IntentEvent) => Effect.Effect<void, never, SqlClient.SqlClient | Ids>

/** Handlers by purpose kind, assembled from every area's `intentOutcomes` (src/Area.ts). */
export class IntentOutcomes extends Context.Tag("agent-directory/IntentOutcomes")<
  IntentOutcomes,
  ReadonlyMap<string, IntentOutcomeHandler>
>() {}

/**
 * Checks an intent the platform would sign against the sending wallet's COMPLETE policy
 * (spec §2.8: allowed networks, contracts, methods, per-transaction and per-day limits).
 * Fails with `PolicyViolation` (422 `policy-violation`, its detail naming the rule).
 */
export class IntentPolicy extends Context.Tag("agent-directory/IntentPolicy")<IntentPolicy, {
  readonly check: (intent: TransactionIntent) => Effect.Effect<void, PolicyViolation, SqlClient.SqlClient>
}>() {}

/**
 * The intents service. Reads and writes run in the caller's transaction (`SqlClient`); chain
 * reads (fees, gas, nonce) and broadcasts go through the chain layer (layers/Chain.ts).
 */
export interface TransactionIntentsShape {
  /**
   * Encodes the call (viem), estimates EIP-1559 fees and gas, reads the sender's pending nonce
   * and records the intent: AWAITING_SIGNATURE for OWNER, PREPARED for PLATFORM.
   * Fails with 422 `configuration-missing` (network not configured) or 503 `chain-rpc-unavailable`
   * (the network's RPC did not answer).
   */
  readonly prepare: (input: PrepareIntent) => Effect.Effect<TransactionIntent, ConfigurationMissing | ChainRpcUnavailable, SqlClient.SqlClient | Ids>
  /**
   * Checks the intent against {@link IntentPolicy}, signs it with the platform's signer, broadcasts
   * it and records SUBMITTED with its hash (PREPARED only). Fails with 422 `policy-violation`,
   * 422 `configuration-missing` (no signer) or 503 `chain-rpc-unavailable`.
   */
  readonly submitByPlatform: (intentId: string) => Effect.Effect<TransactionIntent, PolicyViolation | ConfigurationMissing | ChainRpcUnavailable, SqlClient.SqlClient | Ids>
  /** One intent, or none. */
  readonly find: (intentId: string) => Effect.Effect<TransactionIntent | undefined, never, SqlClient.SqlClient>
  /** Every intent of a purpose, newest first. */
  readonly forPurpose: (purpose: IntentPurpose) => Effect.Effect<ReadonlyArray<TransactionIntent>, never, SqlClient.SqlClient>
}

/** The intents service (see {@link TransactionIntentsShape}). */
export class TransactionIntents extends Context.Tag("agent-directory/TransactionIntents")<TransactionIntents, TransactionIntentsShape>() {}

/** A signed raw EIP-1559 transaction, `0x`-prefixed. */
export type SignedTransaction = Hex
