/**
 * The problem causes of transaction intents' operations (Wallets_GetTransactionIntent,
 * Wallets_SubmitTransactionIntent); the shared ones are in `schema/errors.ts`.
 */
import { Problem } from "../../../schema/problem.js"

/** 404 `transaction-intent-not-found`: no such intent the caller may read. */
export class TransactionIntentNotFound extends Problem<TransactionIntentNotFound>()("TransactionIntentNotFound", {
  status: 404, type: "transaction-intent-not-found", meaning: "no such transaction intent the caller may read"
}) {}
/** 410 `transaction-intent-expired`: the intent was not signed before its `expiresAt` (it is now EXPIRED). */
export class TransactionIntentExpired extends Problem<TransactionIntentExpired>()("TransactionIntentExpired", {
  status: 410, type: "transaction-intent-expired", meaning: "the transaction intent was not signed before it expired"
}) {}
/**
 * 422 `signed-transaction-mismatch`: the signed transaction is not the intent's (not an EIP-1559
 * transaction, a field differs from the unsigned transaction, or another key signed it); `detail`
 * names the first differing field, never its value.
 */
export class SignedTransactionMismatch extends Problem<SignedTransactionMismatch>()("SignedTransactionMismatch", {
  status: 422, type: "signed-transaction-mismatch", meaning: "the signed transaction is not the intent's (the first differing field is named)"
}) {}
/** 422 `transaction-rejected`: the network's node refused the transaction (nonce used, fees too low, funds missing). */
export class TransactionRejected extends Problem<TransactionRejected>()("TransactionRejected", {
  status: 422, type: "transaction-rejected", meaning: "the network's node refused the transaction (its reason is given)"
}) {}
/**
 * 422 `transaction-unknown`: the network's node does not know a transaction with the submitted
 * `transactionHash` (not sent, or not yet propagated to the service's node: retry shortly).
 */
export class TransactionUnknown extends Problem<TransactionUnknown>()("TransactionUnknown", {
  status: 422, type: "transaction-unknown", meaning: "the network's node does not know a transaction with this hash (yet)"
}) {}
