/**
 * Transaction intents as their owners see them (Wallets_GetTransactionIntent,
 * Wallets_SubmitTransactionIntent): who may read one, and the owner's submission of an OWNER
 * intent, either signed (checked against the intent's unsigned transaction byte for byte, then
 * broadcast) or already sent by the owner's wallet (its hash: checked on the node to carry the
 * intent's call), recorded SUBMITTED (its purpose's outcome handler called) in one transaction.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import { getAddress, type Hex, keccak256, parseTransaction, recoverTransactionAddress, serializeTransaction, type Transaction } from "viem"
import { Chain } from "../../../layers/Chain.js"
import { now } from "../../../layers/Clock.js"
import { broadcastRaw, lookupTransaction } from "../../../layers/TransactionIntentsLive.js"
import { type IntentRecord, IntentOutcomes, readIntent, transitionIntent } from "../../../layers/TransactionIntents.js"
import { ChainRpcUnavailable, Forbidden, InvalidState } from "../../../schema/errors.js"
import type { TransactionIntent } from "../../../schema/transactionIntents.js"
import { SignedTransactionMismatch, TransactionIntentExpired, TransactionIntentNotFound, TransactionRejected, TransactionUnknown } from "./Errors.js"

/** The fields compared, in the order they are named when they differ. */
const ComparedFields = ["chainId", "nonce", "maxPriorityFeePerGas", "maxFeePerGas", "gas", "to", "value", "data", "accessList"] as const

const same = (a: unknown, b: unknown): boolean => {
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase()
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a ?? []) === JSON.stringify(b ?? [])
  return a === b
}

/**
 * The first way `signed` is not the intent's signed transaction: the field name, or `signer`;
 * none when it is the intent's transaction signed by its `from`.
 */
export const signedTransactionMismatch = (intent: TransactionIntent, signed: Hex): Effect.Effect<Option.Option<string>> =>
  Effect.gen(function*() {
    const expected = intent.unsignedTransaction
    if (expected === null) return Option.some("nonce")
    const parsed = Either.try(() => parseTransaction(signed))
    if (Either.isLeft(parsed) || parsed.right.type !== "eip1559") return Option.some("type")
    const tx = parsed.right
    if (tx.r === undefined || tx.s === undefined || (tx.yParity === undefined && tx.v === undefined)) return Option.some("signature")
    const want = parseTransaction(expected as Hex)
    for (const field of ComparedFields) {
      if (!same((tx as Record<string, unknown>)[field], (want as Record<string, unknown>)[field])) return Option.some(field)
    }
    const { r: _r, s: _s, v: _v, yParity: _y, ...unsigned } = tx
    if (serializeTransaction({ ...unsigned, type: "eip1559" } as Parameters<typeof serializeTransaction>[0]) !== expected) {
      return Option.some("transaction")
    }
    const signer = yield* Effect.promise(() => recoverTransactionAddress({ serializedTransaction: signed as never }).then(getAddress, () => null))
    if (signer === null || signer !== getAddress(intent.from)) return Option.some("signer")
    return Option.none()
  })

/** The fields a transaction the owner's wallet sent must share with the intent, in the order they are named. */
const SentComparedFields = ["chainId", "from", "to", "value", "data"] as const

/**
 * The first way the transaction `sent` (as the node returned it) is not the intent's: `chainId`,
 * `from` (as `signer`), `to`, `value` or `data`; none when it carries the intent's call. Its
 * nonce, fees and gas limit are the wallet's choice (a wallet may set its own).
 */
export const sentTransactionMismatch = (intent: TransactionIntent, sent: Transaction): Option.Option<string> => {
  const expected = intent.unsignedTransaction
  if (expected === null) return Option.some("nonce")
  const want = parseTransaction(expected as Hex)
  const got: Record<(typeof SentComparedFields)[number], unknown> = {
    chainId: sent.chainId,
    from: sent.from,
    to: sent.to,
    value: sent.value,
    data: sent.input
  }
  const wanted: Record<(typeof SentComparedFields)[number], unknown> = {
    chainId: want.chainId,
    from: intent.from,
    to: want.to,
    value: want.value ?? 0n,
    data: want.data ?? "0x"
  }
  for (const field of SentComparedFields) {
    if (!same(got[field], wanted[field])) return Option.some(field === "from" ? "signer" : field)
  }
  return Option.none()
}

/** Whether an AWAITING_SIGNATURE intent is past its `expiresAt` at `at`. */
const isPastExpiry = (intent: TransactionIntent, at: Date): boolean =>
  intent.state === "AWAITING_SIGNATURE" && new Date(intent.expiresAt).getTime() <= at.getTime()

/**
 * The intent as it stands at `at`: an AWAITING_SIGNATURE intent past its `expiresAt` is EXPIRED
 * (the sender's next round, every `CHAIN_POLL_INTERVAL_MS`, records it so).
 */
const asOf = (intent: TransactionIntent, at: Date): TransactionIntent =>
  isPastExpiry(intent, at) ? { ...intent, state: "EXPIRED" } : intent

/** Transaction intents of the caller. Requires `Chain`, `IntentOutcomes`; methods `SqlClient`, `Ids`. */
export class WalletIntents extends Effect.Service<WalletIntents>()("agent-directory/WalletIntents", {
  effect: Effect.gen(function*() {
    const chain = yield* Chain
    const outcomes = yield* IntentOutcomes

    /** Whether `accountId` may read the intent: its owner, or an ACTIVE member of its workspace. */
    const mayRead = (record: IntentRecord, accountId: string) =>
      Effect.gen(function*() {
        if (record.ownerAccountId === accountId) return true
        if (record.workspaceId === null) return false
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql`SELECT 1 FROM workspace_members
          WHERE workspace_id = ${record.workspaceId} AND account_id = ${accountId} AND state = 'ACTIVE'`
        return rows.length > 0
      }).pipe(Effect.orDie)

    /**
     * Wallets_GetTransactionIntent: the intent as of now, if the caller may read it; else
     * `TransactionIntentNotFound`.
     */
    const get = (intentId: string, accountId: string) =>
      Effect.gen(function*() {
        const record = yield* readIntent(intentId)
        if (record === undefined || !(yield* mayRead(record, accountId))) {
          return yield* Effect.fail(new TransactionIntentNotFound({ detail: "No such transaction intent." }))
        }
        return asOf(record.intent, yield* now)
      })

    type Outcome =
      | { readonly _tag: "Ok"; readonly intent: TransactionIntent }
      | { readonly _tag: "Expired" }

    /**
     * Wallets_SubmitTransactionIntent: in one transaction, the intent locked; checks (404, 403,
     * 409, 410, 422), then SUBMITTED recorded with the transaction's hash and explorer link
     * (handler called): for `Signed` bytes, checked byte for byte against the unsigned
     * transaction and broadcast (the bytes kept, so the sender can broadcast them again); for a
     * transaction the owner's wallet `Sent`, looked up on the node and checked to carry the
     * intent's call ({@link sentTransactionMismatch}). Past `expiresAt` → 410; the sender's round
     * records the expiry.
     */
    const submit = (input: {
      readonly intentId: string
      readonly accountId: string
      readonly transaction: { readonly _tag: "Signed"; readonly raw: string } | { readonly _tag: "Sent"; readonly hash: string }
    }) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const given = input.transaction
        const signed = given._tag === "Signed" ? given.raw.toLowerCase() as Hex : null
        const hash = given._tag === "Signed" ? keccak256(signed!) : given.hash.toLowerCase() as Hex
        const outcome = yield* sql.withTransaction(Effect.gen(function*() {
          const record = yield* readIntent(input.intentId, true)
          if (record === undefined || !(yield* mayRead(record, input.accountId))) {
            return yield* Effect.fail(new TransactionIntentNotFound({ detail: "No such transaction intent." }))
          }
          if (record.ownerAccountId !== input.accountId) {
            return yield* Effect.fail(new Forbidden({ detail: "Only the intent's owner account may submit its signed transaction." }))
          }
          const intent = record.intent
          if (intent.state === "EXPIRED") return { _tag: "Expired" } as Outcome
          if (intent.state !== "AWAITING_SIGNATURE") {
            const again = signed !== null ? record.signedTransaction === signed : intent.transactionHash?.toLowerCase() === hash
            if (["SUBMITTED", "OBSERVED", "CONFIRMED"].includes(intent.state) && again) {
              return { _tag: "Ok", intent } as Outcome
            }
            return yield* Effect.fail(new InvalidState({ detail: `The intent is ${intent.state}; only an AWAITING_SIGNATURE intent can be submitted.` }))
          }
          // a failed request's writes roll back: the sender records the expiry (and calls its handler)
          if (isPastExpiry(intent, yield* now)) return { _tag: "Expired" } as Outcome
          // a sent transaction's own nonce and fees (the wallet's choice) are recorded as the intent's
          let chosen: { nonce?: number; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint } = {}
          const unreachable = new ChainRpcUnavailable({ detail: `The JSON-RPC endpoint of ${intent.network} did not answer; retry later.` })
          if (signed !== null) {
            const mismatch = yield* signedTransactionMismatch(intent, signed)
            if (Option.isSome(mismatch)) {
              return yield* Effect.fail(new SignedTransactionMismatch({
                detail: mismatch.value === "signer"
                  ? "signedTransaction: its `signer` is not the intent's `from`."
                  : mismatch.value === "type" || mismatch.value === "signature"
                  ? `signedTransaction: not a signed EIP-1559 transaction (${mismatch.value}).`
                  : `signedTransaction: its \`${mismatch.value}\` differs from the intent's unsigned transaction.`
              }))
            }
            const sent = yield* broadcastRaw(yield* chain.client(intent.network), signed)
            if (sent._tag === "Unreachable") return yield* Effect.fail(unreachable)
            if (sent._tag === "Rejected") {
              return yield* Effect.fail(new TransactionRejected({ detail: `The node refused the transaction: ${sent.reason}` }))
            }
          } else {
            const found = yield* lookupTransaction(yield* chain.client(intent.network), hash)
            if (found._tag === "Unreachable") return yield* Effect.fail(unreachable)
            if (found._tag === "Unknown") {
              return yield* Effect.fail(new TransactionUnknown({
                detail: `transactionHash: the node of ${intent.network} does not know this transaction (yet); retry once the wallet has sent it.`
              }))
            }
            const mismatch = sentTransactionMismatch(intent, found.transaction)
            if (Option.isSome(mismatch)) {
              return yield* Effect.fail(new SignedTransactionMismatch({
                detail: mismatch.value === "signer"
                  ? "transactionHash: the transaction's `signer` is not the intent's `from`."
                  : `transactionHash: the transaction's \`${mismatch.value}\` differs from the intent's.`
              }))
            }
            const tx = found.transaction
            chosen = {
              nonce: tx.nonce,
              ...(tx.maxFeePerGas !== undefined ? { maxFeePerGas: tx.maxFeePerGas } : {}),
              ...(tx.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: tx.maxPriorityFeePerGas } : {})
            }
          }
          const moved = yield* Effect.provideService(
            transitionIntent({
              id: intent.id,
              from: ["AWAITING_SIGNATURE"],
              to: "SUBMITTED",
              changes: {
                ...(signed !== null ? { signedTransaction: signed } : {}),
                ...chosen,
                transactionHash: hash,
                explorerUrl: chain.transactionUrl(intent.network, hash)
              }
            }),
            IntentOutcomes,
            outcomes
          )
          return { _tag: "Ok", intent: Option.getOrElse(moved, () => intent) } as Outcome
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        if (outcome._tag === "Expired") {
          return yield* Effect.fail(new TransactionIntentExpired({ detail: "The intent was not signed before its expiresAt; prepare a new one." }))
        }
        return outcome.intent
      })

    return { get, submit }
  })
}) {}
