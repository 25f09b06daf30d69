/**
 * The transaction intents service (layers/TransactionIntents.ts): prepares intents (viem encoding,
 * EIP-1559 fees, gas, the owner's pending nonce), and sends PLATFORM intents: the policy check,
 * the nonce taken under a lock per (network, sender), the platform's signature, the signed bytes
 * and hash recorded as SUBMITTED in one transaction BEFORE the broadcast, then the broadcast.
 * A SUBMITTED intent the node does not know is broadcast again with the same bytes
 * ({@link TransactionIntentsShape.rebroadcast}), so a crash between the commit and the
 * broadcast loses nothing and nothing is sent twice.
 *
 * Gas: the node's `eth_estimateGas` from the sender plus {@link GasMarginPercent} per cent
 * (state can change between the estimate and the inclusion). A call whose estimate reverts
 * (it would fail now: e.g. an approval still missing) gets {@link RevertedCallGasLimit}; if it
 * still reverts once mined, the watcher records it FAILED with its receipt.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either, Layer, Option } from "effect"
import {
  type Address,
  BaseError,
  encodeFunctionData,
  getAbiItem,
  getAddress,
  type Hex,
  HttpRequestError,
  keccak256,
  type PublicClient,
  RpcRequestError,
  TimeoutError,
  toFunctionSignature,
  type Transaction,
  TransactionNotFoundError
} from "viem"
import { ChainRpcUnavailable, ConfigurationMissing, PolicyViolation } from "../schema/errors.js"
import type { TransactionIntent } from "../schema/transactionIntents.js"
import { Chain, PlatformSigner } from "./Chain.js"
import { now } from "./Clock.js"
import { Ids } from "./Ids.js"
import {
  chainIdOf,
  IntentOutcomes,
  IntentPolicy,
  type PrepareIntent,
  readIntent,
  selectIntents,
  TransactionIntents,
  type TransactionIntentsShape,
  transitionIntent
} from "./TransactionIntents.js"

/** Added to the node's gas estimate, per cent. */
export const GasMarginPercent = 20n
/** The gas limit of a call whose estimate reverts. */
export const RevertedCallGasLimit = 500_000n
/** How long an intent waits for its signature (OWNER) or its sending (PLATFORM) by default, seconds. */
export const DefaultIntentTtlSeconds = 3600

/** Whether a viem failure is the node's (or the network's) absence rather than an answer. */
const isUnreachable = (e: unknown): boolean =>
  !(e instanceof BaseError) ||
  e.walk((x) => x instanceof HttpRequestError || x instanceof TimeoutError) !== null

/** Whether the node answered that the call reverts. */
const isRevert = (e: unknown): boolean =>
  e instanceof BaseError &&
  e.walk((x) =>
    (x instanceof BaseError && /revert/i.test(x.shortMessage + " " + (x.details ?? ""))) ||
    (x instanceof RpcRequestError && x.code === 3)
  ) !== null

const unavailable = (network: string) =>
  new ChainRpcUnavailable({ detail: `The JSON-RPC endpoint of ${network} did not answer; retry later.` })

/** A chain read: a failure is 503 `chain-rpc-unavailable`. */
const rpc = <A>(network: string, run: () => Promise<A>): Effect.Effect<A, ChainRpcUnavailable> =>
  Effect.tryPromise({ try: run, catch: () => unavailable(network) })

/** JSON of a decoded call or typed data: bigints as decimal strings, byte arrays as they are. */
const jsonSafe = (v: unknown): unknown => {
  if (typeof v === "bigint") return v.toString()
  if (Array.isArray(v)) return v.map(jsonSafe)
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]))
  return v
}

/** What a broadcast became. */
export type BroadcastOutcome =
  | { readonly _tag: "Sent" }
  | { readonly _tag: "Unreachable" }
  /** The node refused it and does not know it: `reason` is the node's short message (no secret: it names a rule). */
  | { readonly _tag: "Rejected"; readonly reason: string }

/**
 * Sends signed bytes; a refusal of bytes the node already knows (already known, nonce too low
 * because it was mined) counts as sent.
 */
export const broadcastRaw = (client: PublicClient, raw: Hex): Effect.Effect<BroadcastOutcome> =>
  Effect.promise(async (): Promise<BroadcastOutcome> => {
    try {
      await client.sendRawTransaction({ serializedTransaction: raw })
      return { _tag: "Sent" }
    } catch (e) {
      if (isUnreachable(e)) return { _tag: "Unreachable" }
      try {
        await client.getTransaction({ hash: keccak256(raw) })
        return { _tag: "Sent" }
      } catch (lookup) {
        if (!(lookup instanceof TransactionNotFoundError) && isUnreachable(lookup)) return { _tag: "Unreachable" }
      }
      const message = e instanceof BaseError ? e.details || e.shortMessage : String(e)
      if (/already known/i.test(message)) return { _tag: "Sent" }
      return { _tag: "Rejected", reason: message.replace(/0x[0-9a-fA-F]{8,}/g, "…").slice(0, 200) }
    }
  })

/** What the node says of a transaction hash: the transaction (pending or mined), unknown, or no answer. */
export type TransactionLookup =
  | { readonly _tag: "Found"; readonly transaction: Transaction }
  | { readonly _tag: "Unknown" }
  | { readonly _tag: "Unreachable" }

/** Looks `hash` up on the node (`eth_getTransactionByHash`). */
export const lookupTransaction = (client: PublicClient, hash: Hex): Effect.Effect<TransactionLookup> =>
  Effect.promise(() =>
    client.getTransaction({ hash }).then(
      (transaction): TransactionLookup => ({ _tag: "Found", transaction }),
      (e): TransactionLookup => e instanceof TransactionNotFoundError || !isUnreachable(e) ? { _tag: "Unknown" } : { _tag: "Unreachable" }
    )
  )

/** Whether the node knows the transaction (pending or mined); none when it did not answer. */
const knows = (client: PublicClient, hash: Hex): Effect.Effect<Option.Option<boolean>> =>
  Effect.map(lookupTransaction(client, hash), (found) => found._tag === "Unreachable" ? Option.none() : Option.some(found._tag === "Found"))

/** Builds the service on the chain layer, the platform's signer, the wallets' policy and the areas' outcome handlers. */
export const makeTransactionIntents = Effect.gen(function*() {
  const chain = yield* Chain
  const signer = yield* PlatformSigner
  const policy = yield* IntentPolicy
  const outcomes = yield* IntentOutcomes
  const withOutcomes = Effect.provideService(IntentOutcomes, outcomes)

  const prepare: TransactionIntentsShape["prepare"] = (input: PrepareIntent) =>
    Effect.gen(function*() {
      const client = yield* chain.client(input.network)
      const from = input.from !== undefined
        ? getAddress(input.from)
        : input.signer === "PLATFORM"
        ? yield* Option.match(signer.address, {
          onNone: () => Effect.fail(new ConfigurationMissing({ detail: "No platform signer is configured (CHAIN_SIGNER_PRIVATE_KEY)." })),
          onSome: Effect.succeed
        })
        : yield* Effect.dieMessage("an OWNER intent needs its sender (`from`)")
      const to = getAddress(input.to)
      const value = input.value ?? 0n
      const data = encodeFunctionData({ abi: input.abi, functionName: input.functionName, args: input.args } as Parameters<typeof encodeFunctionData>[0])
      const item = getAbiItem({ abi: input.abi, name: input.functionName, args: input.args } as Parameters<typeof getAbiItem>[0])
      const signature = item !== undefined && item.type === "function"
        ? toFunctionSignature(item)
        : input.functionName
      const call = { functionName: input.functionName, signature, args: jsonSafe(input.args) }
      const fees = yield* rpc(input.network, () => client.estimateFeesPerGas())
      const estimate = yield* Effect.promise(() =>
        client.estimateGas({ account: from, to, data, value }).then(Either.right, Either.left)
      )
      const gasLimit = Either.isRight(estimate)
        ? estimate.right + (estimate.right * GasMarginPercent) / 100n
        : isRevert(estimate.left) && !isUnreachable(estimate.left)
        ? RevertedCallGasLimit
        : yield* Effect.fail(unavailable(input.network))
      const nonce = input.signer === "OWNER"
        ? input.nonce ?? (yield* rpc(input.network, () => client.getTransactionCount({ address: from, blockTag: "pending" })))
        : null
      const sql = yield* SqlClient.SqlClient
      const id = yield* (yield* Ids).next
      const at = yield* now
      const expiresAt = new Date(at.getTime() + (input.ttlSeconds ?? DefaultIntentTtlSeconds) * 1000)
      yield* sql`INSERT INTO transaction_intents (id, network, workspace_id, owner_account_id, state, signer, purpose_kind, purpose_id,
          from_address, to_address, data, call, value, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, nonce, typed_data,
          expires_at, created_at, updated_at)
        VALUES (${id}, ${input.network}, ${input.workspaceId}, ${input.ownerAccountId},
          ${input.signer === "OWNER" ? "AWAITING_SIGNATURE" : "PREPARED"}, ${input.signer}, ${input.purpose.kind}, ${input.purpose.id},
          ${from}, ${to}, ${data.toLowerCase()}, ${JSON.stringify(call)}::jsonb, ${value.toString()}, ${gasLimit.toString()},
          ${fees.maxFeePerGas.toString()}, ${fees.maxPriorityFeePerGas.toString()}, ${nonce},
          ${input.typedData === undefined ? null : JSON.stringify(jsonSafe(input.typedData))}::jsonb,
          ${expiresAt}, ${at}, ${at})`.pipe(Effect.orDie)
      return (yield* readIntent(id))!.intent
    })

  const find: TransactionIntentsShape["find"] = (intentId) => Effect.map(readIntent(intentId), (r) => r?.intent)

  const forPurpose: TransactionIntentsShape["forPurpose"] = (purpose) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.map(
        selectIntents(sql`t.purpose_kind = ${purpose.kind} AND t.purpose_id::text = ${purpose.id}`),
        (rows) => rows.map((r) => r.intent)
      ))

  /** Records a refused or rejected intent FAILED with `code` (handler called); the intent after. */
  const fail = (id: string, from: TransactionIntent["state"], code: string) =>
    withOutcomes(transitionIntent({ id, from: [from], to: "FAILED", changes: { failureCode: code } }))

  type SignStep =
    | { readonly _tag: "Done"; readonly intent: TransactionIntent }
    | { readonly _tag: "Broadcast"; readonly intent: TransactionIntent; readonly raw: Hex }
    | { readonly _tag: "Refused"; readonly error: PolicyViolation }

  /** The one transaction of a platform send: check, nonce under the lock, sign, record SUBMITTED. */
  const signAndRecord = (intentId: string) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const record = yield* readIntent(intentId, true)
      if (record === undefined) return yield* Effect.dieMessage(`no transaction intent ${intentId}`)
      const intent = record.intent
      if (intent.signer !== "PLATFORM" || intent.state !== "PREPARED") return { _tag: "Done", intent } as SignStep
      if (new Date(intent.expiresAt).getTime() <= (yield* now).getTime()) {
        const expired = yield* withOutcomes(transitionIntent({ id: intent.id, from: ["PREPARED"], to: "EXPIRED" }))
        return { _tag: "Done", intent: Option.getOrElse(expired, () => intent) } as SignStep
      }
      const refusal = yield* Effect.either(policy.check(intent))
      if (Either.isLeft(refusal)) {
        const failed = yield* fail(intent.id, "PREPARED", "policy-violation")
        return { _tag: "Refused", error: refusal.left, intent: Option.getOrElse(failed, () => intent) } as SignStep
      }
      const address = yield* Option.match(signer.address, {
        onNone: () => Effect.fail(new ConfigurationMissing({ detail: "No platform signer is configured (CHAIN_SIGNER_PRIVATE_KEY)." })),
        onSome: Effect.succeed
      })
      if (getAddress(intent.from) !== address) {
        return yield* Effect.fail(new ConfigurationMissing({ detail: "The intent's sender is not the configured platform signer." }))
      }
      const client = yield* chain.client(intent.network)
      const chainId = chainIdOf(intent.network)!
      // one sender of (network, address) at a time, across processes: the nonce read and its use are serialized
      yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`transaction-intent-nonce:${intent.network}:${address.toLowerCase()}`}))`
      const pending = yield* rpc(intent.network, () => client.getTransactionCount({ address, blockTag: "pending" }))
      const used = yield* sql<{ next: number | null }>`SELECT (max(nonce) + 1)::float8 AS next FROM transaction_intents
        WHERE network = ${intent.network} AND lower(from_address) = ${address.toLowerCase()} AND signer = 'PLATFORM'
          AND nonce IS NOT NULL AND state IN ('SUBMITTED','OBSERVED','CONFIRMED')`
      const nonce = Math.max(pending, used[0]?.next ?? 0)
      // fees as the network asks now (never under the prepared ones)
      const fresh = yield* rpc(intent.network, () => client.estimateFeesPerGas())
      const maxFeePerGas = fresh.maxFeePerGas > intent.fees.maxFeePerGas ? fresh.maxFeePerGas : intent.fees.maxFeePerGas
      const maxPriorityFeePerGas = fresh.maxPriorityFeePerGas > intent.fees.maxPriorityFeePerGas
        ? fresh.maxPriorityFeePerGas
        : intent.fees.maxPriorityFeePerGas
      const raw = yield* signer.signTransaction({
        type: "eip1559",
        chainId,
        nonce,
        maxFeePerGas,
        maxPriorityFeePerGas,
        gas: intent.fees.gasLimit,
        to: intent.to as Address,
        value: intent.value,
        data: intent.data as Hex,
        accessList: []
      })
      const hash = keccak256(raw)
      const submitted = yield* withOutcomes(transitionIntent({
        id: intent.id,
        from: ["PREPARED"],
        to: "SUBMITTED",
        changes: {
          nonce,
          maxFeePerGas,
          maxPriorityFeePerGas,
          signedTransaction: raw,
          transactionHash: hash,
          explorerUrl: chain.transactionUrl(intent.network, hash)
        }
      }))
      return { _tag: "Broadcast", intent: Option.getOrElse(submitted, () => intent), raw } as SignStep
    })

  /** Broadcasts a recorded SUBMITTED intent; a definitive refusal records it FAILED `transaction-rejected`. */
  const broadcastRecorded = (intent: TransactionIntent, raw: Hex) =>
    Effect.gen(function*() {
      const client = yield* chain.client(intent.network)
      const outcome = yield* broadcastRaw(client, raw)
      if (outcome._tag !== "Rejected") return intent
      const sql = yield* SqlClient.SqlClient
      const failed = yield* sql.withTransaction(fail(intent.id, "SUBMITTED", "transaction-rejected")).pipe(Effect.orDie)
      return Option.getOrElse(failed, () => intent)
    })

  const submitByPlatform: TransactionIntentsShape["submitByPlatform"] = (intentId) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const step = yield* sql.withTransaction(signAndRecord(intentId)).pipe(
        Effect.catchTag("SqlError", (e) => Effect.die(e))
      )
      if (step._tag === "Refused") return yield* Effect.fail(step.error)
      if (step._tag === "Done") return step.intent
      return yield* broadcastRecorded(step.intent, step.raw)
    })

  const pendingPlatform: TransactionIntentsShape["pendingPlatform"] = (limit) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.map(
        selectIntents(sql`t.state = 'PREPARED' AND t.signer = 'PLATFORM'`, { limit, oldestFirst: true }),
        (rows) => rows.map((r) => r.intent.id)
      ))

  const expireDue: TransactionIntentsShape["expireDue"] = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const due = yield* sql<{ id: string }>`SELECT id FROM transaction_intents
      WHERE state = 'AWAITING_SIGNATURE' AND expires_at <= ${at} ORDER BY expires_at LIMIT 100`.pipe(Effect.orDie)
    let count = 0
    for (const { id } of due) {
      const moved = yield* sql.withTransaction(withOutcomes(transitionIntent({ id, from: ["AWAITING_SIGNATURE"], to: "EXPIRED" })))
        .pipe(Effect.orDie)
      if (Option.isSome(moved)) count++
    }
    return count
  })

  const rebroadcast: TransactionIntentsShape["rebroadcast"] = (olderThanMs) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const at = yield* now
      const due = yield* selectIntents(
        sql`t.state = 'SUBMITTED' AND t.signed_transaction IS NOT NULL AND t.updated_at <= ${new Date(at.getTime() - olderThanMs)}`,
        { limit: 100, oldestFirst: true }
      )
      let sent = 0
      for (const { intent, signedTransaction } of due) {
        const client = yield* Effect.option(chain.client(intent.network))
        if (Option.isNone(client)) continue
        const known = yield* knows(client.value, intent.transactionHash as Hex)
        if (Option.isNone(known) || known.value) continue
        yield* broadcastRecorded(intent, signedTransaction!).pipe(Effect.ignore)
        sent++
      }
      return sent
    })

  return TransactionIntents.of({ prepare, submitByPlatform, find, forPurpose, pendingPlatform, expireDue, rebroadcast, broadcast: broadcastRecorded })
})

/**
 * The service. Requires `Chain`, `PlatformSigner`, `IntentPolicy` (the wallets area's,
 * src/wallets/index.ts) and `IntentOutcomes` (src/workflows.ts); its methods run on the
 * caller's `SqlClient` and `Ids`.
 */
export const TransactionIntentsLive: Layer.Layer<TransactionIntents, never, Chain | PlatformSigner | IntentPolicy | IntentOutcomes> =
  Layer.effect(TransactionIntents, makeTransactionIntents)
