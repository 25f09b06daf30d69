/**
 * Transaction intents as their owners see them (Wallets_GetTransactionIntent,
 * Wallets_SubmitTransactionIntent): who may read one, and the owner's submission of a signed
 * OWNER intent: checked against the intent's unsigned transaction byte for byte, broadcast,
 * recorded SUBMITTED (its purpose's outcome handler called) in one transaction.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import { getAddress, type Hex, keccak256, parseTransaction, recoverTransactionAddress, serializeTransaction } from "viem"
import { Chain } from "../../../layers/Chain.js"
import { now } from "../../../layers/Clock.js"
import { broadcastRaw } from "../../../layers/TransactionIntentsLive.js"
import { type IntentRecord, IntentOutcomes, readIntent, transitionIntent } from "../../../layers/TransactionIntents.js"
import { ChainRpcUnavailable, Forbidden, InvalidState } from "../../../schema/errors.js"
import type { TransactionIntent } from "../../../schema/transactionIntents.js"
import { SignedTransactionMismatch, TransactionIntentExpired, TransactionIntentNotFound, TransactionRejected } from "./Errors.js"

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
     * 409, 410, 422), broadcast, SUBMITTED recorded with the signed bytes, hash and explorer link
     * (handler called). Past `expiresAt` → 410; the sender's round records the expiry.
     */
    const submit = (input: { readonly intentId: string; readonly accountId: string; readonly signedTransaction: string }) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const signed = input.signedTransaction.toLowerCase() as Hex
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
            if (["SUBMITTED", "OBSERVED", "CONFIRMED"].includes(intent.state) && record.signedTransaction === signed) {
              return { _tag: "Ok", intent } as Outcome
            }
            return yield* Effect.fail(new InvalidState({ detail: `The intent is ${intent.state}; only an AWAITING_SIGNATURE intent can be submitted.` }))
          }
          // a failed request's writes roll back: the sender records the expiry (and calls its handler)
          if (isPastExpiry(intent, yield* now)) return { _tag: "Expired" } as Outcome
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
          const client = yield* chain.client(intent.network)
          const sent = yield* broadcastRaw(client, signed)
          if (sent._tag === "Unreachable") {
            return yield* Effect.fail(new ChainRpcUnavailable({ detail: `The JSON-RPC endpoint of ${intent.network} did not answer; retry later.` }))
          }
          if (sent._tag === "Rejected") {
            return yield* Effect.fail(new TransactionRejected({ detail: `The node refused the transaction: ${sent.reason}` }))
          }
          const hash = keccak256(signed)
          const moved = yield* Effect.provideService(
            transitionIntent({
              id: intent.id,
              from: ["AWAITING_SIGNATURE"],
              to: "SUBMITTED",
              changes: { signedTransaction: signed, transactionHash: hash, explorerUrl: chain.transactionUrl(intent.network, hash) }
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
