/**
 * Refunds of orders through the rail that paid them (docs/commerce.md):
 *
 * - {@link startRefund}: the order's confirmed (or reviewed) payment → REFUND_PENDING, then by its
 *   rail: ADMIN → {@link completeRefund} at once; PROCESSOR → waits for the processor's refund event
 *   (the webhook receiver calls {@link completeRefund}); ONCHAIN and X402 → a transaction intent, an
 *   ERC-20 `transfer` of the payment's units from the seller's payout address back to the payer,
 *   signed by the seller's wallet (OWNER), purpose `commerce.refund` with the payment's id.
 * - {@link completeRefund}: payment REFUND_PENDING → REFUNDED, its order REFUND_PENDING → REFUNDED
 *   (version + 1), the order's entitlements (ACTIVE, GRACE) → REVOKED.
 * - {@link refundOutcome}: the intents' reaction: CONFIRMED → {@link completeRefund}; FAILED,
 *   EXPIRED or REPLACED → payment and order MANUAL_REVIEW (an administrator resolves them).
 *
 * Each runs in the caller's transaction and is idempotent on the payment: completing a refunded
 * payment changes nothing.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { erc20Abi, getAddress, isAddress } from "viem"
import { now } from "../../../layers/Clock.js"
import type { Ids } from "../../../layers/Ids.js"
import { type IntentOutcomeHandler, TransactionIntents } from "../../../layers/TransactionIntents.js"
import type { ChainRpcUnavailable } from "../../../schema/errors.js"
import { RefundNotPossible } from "./Errors.js"
import { makeOrdersRepo, type PaymentRow } from "./Repo.js"

/** The purpose kind of refund intents (layers/TransactionIntents.ts); the purpose id is the payment's id. */
export const RefundPurpose = "commerce.refund"

/** Payment states a refund starts from: the confirmed payment, or one an administrator reviewed. */
const RefundablePaymentStates = ["CONFIRMED", "MANUAL_REVIEW"] as const

/**
 * Completes the refund of payment `paymentId`: payment REFUND_PENDING → REFUNDED, order
 * REFUND_PENDING → REFUNDED (version + 1), the order's ACTIVE and GRACE entitlements → REVOKED.
 * A payment in another state (already refunded, unknown) changes nothing. Returns whether it moved.
 * Runs in the caller's transaction; a storage failure is a defect.
 */
export const completeRefund = (paymentId: string): Effect.Effect<boolean, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const repo = yield* makeOrdersRepo
    const at = yield* now
    const payment = yield* repo.paymentById(paymentId)
    if (Option.isNone(payment) || payment.value.state !== "REFUND_PENDING") return false
    yield* repo.movePayment(paymentId, ["REFUND_PENDING"], "REFUNDED", at)
    yield* repo.moveOrder(payment.value.orderId, ["REFUND_PENDING"], "REFUNDED", at)
    yield* repo.revokeEntitlements(payment.value.orderId, at)
    return true
  }).pipe(Effect.orDie)

/** The EVM address of a CAIP-10 account id (`eip155:1:0x…`) or of a bare address; null otherwise. */
const addressOf = (account: string | null): `0x${string}` | null => {
  if (account === null) return null
  const last = account.split(":").pop() ?? ""
  return isAddress(last) ? getAddress(last) : null
}

/** The ERC-20 contract of a CAIP-19 id (`eip155:1/erc20:0x…`); null otherwise. */
const tokenOf = (caip19: string | null): `0x${string}` | null => {
  const match = caip19 === null ? null : /\/erc20:(0x[0-9a-fA-F]{40})$/.exec(caip19)
  return match === null ? null : getAddress(match[1]!)
}

/**
 * Starts the refund of order `orderId`, already moved to REFUND_PENDING by the caller: its
 * confirmed (or reviewed) payment → REFUND_PENDING, then by rail (see the module docs).
 * `ownerAccountId` is the account that signs an on-chain refund (a member of the seller's
 * workspace). Returns the payment refunded, if the order had one (an order without a payment is
 * refunded at once). Fails with `RefundNotPossible` (an on-chain payment whose payer, the seller's
 * payout address, the token or the network is unknown), `ChainRpcUnavailable` and
 * `RefundNotPossible` for an unconfigured network (preparing the intent).
 */
export const startRefund = (input: {
  readonly orderId: string
  readonly ownerAccountId: string | null
  readonly at: Date
}): Effect.Effect<
  Option.Option<PaymentRow>,
  RefundNotPossible | ChainRpcUnavailable,
  SqlClient.SqlClient | Ids | TransactionIntents
> =>
  Effect.gen(function*() {
    const repo = yield* makeOrdersRepo
    const payments = yield* repo.payments(input.orderId)
    const payment = payments.find((p) => (RefundablePaymentStates as ReadonlyArray<string>).includes(p.state))
    if (payment === undefined) {
      // nothing was paid through a rail: the order is refunded at once
      yield* repo.moveOrder(input.orderId, ["REFUND_PENDING"], "REFUNDED", input.at)
      yield* repo.revokeEntitlements(input.orderId, input.at)
      return Option.none()
    }
    yield* repo.movePayment(payment.id, RefundablePaymentStates, "REFUND_PENDING", input.at)
    switch (payment.rail) {
      case "ADMIN":
        yield* completeRefund(payment.id)
        break
      case "PROCESSOR":
        // the processor's refund event completes it (the webhook receiver calls completeRefund)
        break
      default: {
        const route = Option.getOrThrow(yield* repo.refundRoute(input.orderId))
        const payer = addressOf(payment.payer)
        const payout = addressOf(route.payoutAddress)
        const token = tokenOf(route.assetLocator)
        const network = route.caip2
        if (payer === null || payout === null || token === null || network === null) {
          const missing = [
            payer === null ? "the payer" : null,
            payout === null ? "the seller's payout address" : null,
            token === null ? "the token contract" : null,
            network === null ? "the chain network" : null
          ].filter((m) => m !== null).join(", ")
          return yield* new RefundNotPossible({ detail: `The payment cannot be sent back on chain: ${missing} is not known.` })
        }
        const intents = yield* TransactionIntents
        const intent = yield* intents.prepare({
          network,
          signer: "OWNER",
          from: payout,
          to: token,
          abi: erc20Abi,
          functionName: "transfer",
          args: [payer, BigInt(payment.units)],
          purpose: { kind: RefundPurpose, id: payment.id },
          workspaceId: route.sellerWorkspaceId,
          ownerAccountId: input.ownerAccountId
        }).pipe(
          Effect.catchTag("ConfigurationMissing", () =>
            new RefundNotPossible({ detail: "The payment's network is not a configured chain on this server." }))
        )
        yield* repo.setRefundIntent(payment.id, intent.id)
      }
    }
    return Option.some(payment)
  }).pipe(Effect.catchTags({ SqlError: Effect.die, ParseError: Effect.die }))

/** The refunds' reaction to their intents' changes (see the module docs). */
export const refundOutcome: IntentOutcomeHandler = (event) =>
  Effect.gen(function*() {
    switch (event.state) {
      case "CONFIRMED":
        yield* completeRefund(event.purpose.id)
        return
      case "FAILED":
      case "EXPIRED":
      case "REPLACED": {
        const repo = yield* makeOrdersRepo
        const at = yield* now
        const payment = yield* repo.paymentById(event.purpose.id)
        if (Option.isNone(payment) || payment.value.state !== "REFUND_PENDING") return
        yield* repo.movePayment(payment.value.id, ["REFUND_PENDING"], "MANUAL_REVIEW", at)
        yield* repo.moveOrder(payment.value.orderId, ["REFUND_PENDING"], "MANUAL_REVIEW", at)
        return
      }
      default:
        return
    }
  }).pipe(Effect.orDie)
