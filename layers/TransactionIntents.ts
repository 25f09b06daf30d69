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
import { SqlClient, type Statement } from "@effect/sql"
import { Context, Effect, Option, Schema } from "effect"
import { type Abi, type Address, type Hex, serializeTransaction, type TransactionReceipt, type TypedDataDefinition } from "viem"
import type { ChainRpcUnavailable, ConfigurationMissing, PolicyViolation } from "../schema/errors.js"
import { TransactionIntent, type TransactionIntentSigner, type TransactionIntentState } from "../schema/transactionIntents.js"
import { now } from "./Clock.js"
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
  /**
   * The OWNER intent's nonce when the caller plans several in a row (an ERC-20 `approve` at n,
   * the call that spends it at n + 1); default: the sender's pending nonce.
   */
  readonly nonce?: number
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
  /** The ids of PREPARED PLATFORM intents, oldest first, at most `limit` (the background sender's work). */
  readonly pendingPlatform: (limit: number) => Effect.Effect<ReadonlyArray<string>, never, SqlClient.SqlClient>
  /** Records every AWAITING_SIGNATURE intent past its `expiresAt` EXPIRED (handlers called); how many. */
  readonly expireDue: Effect.Effect<number, never, SqlClient.SqlClient | Ids>
  /**
   * Broadcasts again, with the recorded bytes, every SUBMITTED intent unchanged for `olderThanMs`
   * whose transaction the node does not know (lost to a crash, dropped from the mempool, or
   * reorged out); how many were sent.
   */
  readonly rebroadcast: (olderThanMs: number) => Effect.Effect<number, never, SqlClient.SqlClient | Ids>
  /**
   * Broadcasts the signed bytes recorded with a SUBMITTED intent (`raw`); a node that refuses
   * them and does not know them records the intent FAILED `transaction-rejected` (handler
   * called). A node that does not answer leaves it SUBMITTED ({@link rebroadcast} sends it later).
   * Returns the intent after.
   */
  readonly broadcast: (intent: TransactionIntent, raw: Hex) => Effect.Effect<TransactionIntent, ConfigurationMissing, SqlClient.SqlClient | Ids>
}

/** The intents service (see {@link TransactionIntentsShape}). */
export class TransactionIntents extends Context.Tag("agent-directory/TransactionIntents")<TransactionIntents, TransactionIntentsShape>() {}

/** A signed raw EIP-1559 transaction, `0x`-prefixed. */
export type SignedTransaction = Hex

// ---- SQL helpers shared by the service (layers/TransactionIntentsLive.ts), the owner's submission
// (src/wallets/intents/) and the block watcher: one row shape, one transition.

/** An intent with what only the service sees: its purpose, workspace, owner and signed bytes. */
export interface IntentRecord {
  readonly intent: TransactionIntent
  readonly purpose: IntentPurpose
  readonly workspaceId: string | null
  readonly ownerAccountId: string | null
  /** The signed raw transaction recorded before its broadcast, or null. */
  readonly signedTransaction: Hex | null
}

const { unsignedTransaction: _unsigned, ...wireFields } = TransactionIntent.fields
const IntentRow = Schema.Struct({
  ...wireFields,
  purposeKind: Schema.String,
  purposeId: Schema.String,
  workspaceId: Schema.NullOr(Schema.String),
  ownerAccountId: Schema.NullOr(Schema.String),
  signedTransaction: Schema.NullOr(Schema.String)
})
const decodeRows = Schema.decodeUnknown(Schema.Array(IntentRow))

/** The EIP-155 chain id of a CAIP-2 `eip155:<n>` network, else null. */
export const chainIdOf = (network: string): number | null => {
  const match = /^eip155:([0-9]{1,15})$/.exec(network)
  return match === null ? null : Number(match[1])
}

/**
 * The serialized unsigned EIP-1559 transaction of an intent (chain id, nonce, fees, gas limit,
 * recipient, value, data, empty access list), or null while its nonce is unknown.
 */
export const unsignedTransactionOf = (intent: Omit<TransactionIntent, "unsignedTransaction">): Hex | null => {
  const chainId = chainIdOf(intent.network)
  if (intent.nonce === null || chainId === null) return null
  return serializeTransaction({
    type: "eip1559",
    chainId,
    nonce: intent.nonce,
    maxFeePerGas: intent.fees.maxFeePerGas,
    maxPriorityFeePerGas: intent.fees.maxPriorityFeePerGas,
    gas: intent.fees.gasLimit,
    to: intent.to as Address,
    value: intent.value,
    data: intent.data as Hex,
    accessList: []
  })
}

const toRecord = (row: typeof IntentRow.Type): IntentRecord => {
  const { ownerAccountId, purposeId, purposeKind, signedTransaction, workspaceId, ...rest } = row
  return {
    intent: { ...rest, unsignedTransaction: unsignedTransactionOf(rest) },
    purpose: { kind: purposeKind, id: purposeId },
    workspaceId,
    ownerAccountId,
    signedTransaction: signedTransaction as Hex | null
  }
}

/**
 * The intents matching `where` (a fragment on `transaction_intents t`), ordered by `orderBy`
 * (default newest first), in the caller's transaction; `lock` reads them `FOR UPDATE`.
 * A storage failure is a defect.
 */
export const selectIntents = (
  where: Statement.Fragment,
  options: { readonly lock?: boolean; readonly limit?: number; readonly oldestFirst?: boolean } = {}
): Effect.Effect<ReadonlyArray<IntentRecord>, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`SELECT t.id, t.network, t.state, t.signer, t.from_address AS "from", t.to_address AS "to", t.data,
        t.call, t.value::text AS value,
        json_build_object('gasLimit', t.gas_limit::text, 'maxFeePerGas', t.max_fee_per_gas::text,
          'maxPriorityFeePerGas', t.max_priority_fee_per_gas::text) AS fees,
        t.nonce::float8 AS nonce, t.typed_data AS "typedData", t.transaction_hash AS "transactionHash",
        t.block_number::text AS "blockNumber", t.block_hash AS "blockHash", t.explorer_url AS "explorerUrl",
        t.failure_code AS "failureCode", api_ts(t.expires_at) AS "expiresAt", api_ts(t.created_at) AS "createdAt",
        api_ts(t.submitted_at) AS "submittedAt", api_ts(t.observed_at) AS "observedAt", api_ts(t.confirmed_at) AS "confirmedAt",
        api_ts(t.updated_at) AS "updatedAt", t.version::float8 AS version,
        t.purpose_kind AS "purposeKind", t.purpose_id AS "purposeId", t.workspace_id AS "workspaceId",
        t.owner_account_id AS "ownerAccountId", t.signed_transaction AS "signedTransaction"
      FROM transaction_intents t WHERE ${where}
      ORDER BY t.created_at ${sql.unsafe(options.oldestFirst === true ? "ASC" : "DESC")}, t.id
      ${sql.unsafe(options.limit === undefined ? "" : `LIMIT ${Math.max(1, Math.floor(options.limit))}`)}
      ${sql.unsafe(options.lock === true ? "FOR UPDATE OF t" : "")}`
    return (yield* decodeRows(rows)).map(toRecord)
  }).pipe(Effect.orDie)

/** One intent with its purpose (see {@link selectIntents}), `FOR UPDATE` when `lock`; none when unknown. */
export const readIntent = (id: string, lock = false): Effect.Effect<IntentRecord | undefined, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
      ? Effect.map(selectIntents(sql`t.id = ${id}`, { lock }), (rows) => rows[0])
      : Effect.succeed(undefined))

/** The columns a transition may set beside the state (absent: unchanged; null: cleared). */
export interface IntentChanges {
  readonly nonce?: number
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  readonly signedTransaction?: Hex
  readonly transactionHash?: Hex
  readonly explorerUrl?: string | null
  readonly blockNumber?: bigint | null
  readonly blockHash?: Hex | null
  readonly failureCode?: string | null
}

/** A transition of one intent (see {@link transitionIntent}). */
export interface IntentTransition {
  readonly id: string
  /** The states it may move from; the intent is left as it is in any other. */
  readonly from: ReadonlyArray<TransactionIntentState>
  readonly to: TransactionIntentState
  readonly changes?: IntentChanges
  /** The receipt given to the handler (OBSERVED, CONFIRMED, a reverted FAILED), else null. */
  readonly receipt?: TransactionReceipt | null
}

/**
 * Moves one intent to `to` in one conditional statement (state in `from`; `version` + 1,
 * `updated_at` now; `submitted_at`, `observed_at`, `confirmed_at` set on first reaching SUBMITTED,
 * OBSERVED, CONFIRMED; `observed_at` cleared when an OBSERVED intent goes back to SUBMITTED) and
 * calls its purpose's {@link IntentOutcomeHandler} (if any) with the new intent, in the caller's
 * transaction. Returns the moved intent, or none when it was in no state of `from` (nothing
 * changed, no handler called). A storage failure is a defect.
 */
export const transitionIntent = (
  t: IntentTransition
): Effect.Effect<Option.Option<TransactionIntent>, never, SqlClient.SqlClient | Ids | IntentOutcomes> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const c = t.changes ?? {}
    const set: Array<Statement.Fragment> = [sql`state = ${t.to}`, sql`updated_at = ${at}`, sql`version = version + 1`]
    if (c.nonce !== undefined) set.push(sql`nonce = ${c.nonce}`)
    if (c.maxFeePerGas !== undefined) set.push(sql`max_fee_per_gas = ${c.maxFeePerGas.toString()}`)
    if (c.maxPriorityFeePerGas !== undefined) set.push(sql`max_priority_fee_per_gas = ${c.maxPriorityFeePerGas.toString()}`)
    if (c.signedTransaction !== undefined) set.push(sql`signed_transaction = ${c.signedTransaction.toLowerCase()}`)
    if (c.transactionHash !== undefined) set.push(sql`transaction_hash = ${c.transactionHash.toLowerCase()}`)
    if (c.explorerUrl !== undefined) set.push(sql`explorer_url = ${c.explorerUrl}`)
    if (c.blockNumber !== undefined) set.push(sql`block_number = ${c.blockNumber === null ? null : c.blockNumber.toString()}`)
    if (c.blockHash !== undefined) set.push(sql`block_hash = ${c.blockHash}`)
    if (c.failureCode !== undefined) set.push(sql`failure_code = ${c.failureCode}`)
    if (t.to === "SUBMITTED") set.push(sql`submitted_at = COALESCE(submitted_at, ${at})`, sql`observed_at = NULL`)
    if (t.to === "OBSERVED") set.push(sql`observed_at = COALESCE(observed_at, ${at})`)
    if (t.to === "CONFIRMED") set.push(sql`confirmed_at = COALESCE(confirmed_at, ${at})`)
    const moved = yield* sql`UPDATE transaction_intents SET ${sql.csv(set)}
      WHERE id = ${t.id} AND state IN ${sql.in(t.from)} RETURNING id`
    if (moved.length === 0) return Option.none()
    const record = yield* readIntent(t.id)
    if (record === undefined) return Option.none()
    const handler = (yield* IntentOutcomes).get(record.purpose.kind)
    if (handler !== undefined) {
      yield* handler({ intent: record.intent, purpose: record.purpose, state: t.to, receipt: t.receipt ?? null })
    }
    return Option.some(record.intent)
  }).pipe(Effect.orDie)

/** The states an intent never leaves. */
export const FinalIntentStates: ReadonlyArray<TransactionIntentState> = ["CONFIRMED", "FAILED", "REPLACED", "EXPIRED"]
