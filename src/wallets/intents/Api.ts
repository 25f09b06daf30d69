/**
 * Wallets area contract, transaction intents (layers/TransactionIntents.ts, docs/chains.md): read
 * one intent, and submit the owner's signature of an OWNER intent. Its own group (tag "Wallets"
 * through `OpenApi.Title`).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Data } from "../../../schema/envelope.js"
import { ChainRpcUnavailable, ConfigurationMissing, Forbidden, InvalidState } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { TransactionIntent } from "../../../schema/transactionIntents.js"
import { operation } from "../../api/operation.js"
import { SignedTransactionMismatch, TransactionIntentExpired, TransactionIntentNotFound, TransactionRejected, TransactionUnknown } from "./Errors.js"
import { IntentPath, SubmitTransactionIntentRequest } from "./Schemas.js"

const reading = "An intent is readable by its owner account (OWNER intents) and by the ACTIVE members of its workspace; " +
  "to anyone else it is a 404 `transaction-intent-not-found`, like an unknown id."

export class WalletIntentsApi extends HttpApiGroup.make("WalletIntents")
  .add(
    HttpApiEndpoint.get("getTransactionIntent", "/api/v1/transaction-intents/:intentId")
      .setPath(IntentPath)
      .addSuccess(Data(TransactionIntent))
      .pipe(
        operation({
          id: "Wallets_GetTransactionIntent",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "One transaction intent: the call, its fees, its state on the chain",
          description: "A transaction intent: the contract call the service prepared on a network (`network` CAIP-2, " +
            "`from`, `to`, `data` with `call` decoded beside it, `value` in wei), its EIP-1559 `fees` and gas limit, " +
            "`nonce`, `unsignedTransaction` (the serialized unsigned EIP-1559 transaction an OWNER intent's wallet " +
            "signs), EIP-712 `typedData` when the intent carries a decision to sign, and where it is: PREPARED → " +
            "AWAITING_SIGNATURE (OWNER) → SUBMITTED (broadcast; `transactionHash`, `explorerUrl`) → OBSERVED (in a " +
            "block: `blockNumber`, `blockHash`) → CONFIRMED; or FAILED (`failureCode`), REPLACED, EXPIRED (an " +
            "AWAITING_SIGNATURE intent reads EXPIRED once past `expiresAt`). Chain " +
            "values are decimal strings.\n\n" + reading + " Produced statuses: 200, 400 (path not a uuid), 401, 404, and " +
            "503/500 when the database is unavailable; 403 is listed for sessions refused by the session rules.",
          errors: [TransactionIntentNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("submitTransactionIntent", "/api/v1/transaction-intents/:intentId/submit")
      .setPath(IntentPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(SubmitTransactionIntentRequest)
      .addSuccess(Data(TransactionIntent))
      .pipe(
        operation({
          id: "Wallets_SubmitTransactionIntent",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 410, 422, 500, 503],
          summary: "Submit your wallet's signature of an OWNER transaction intent, or the hash of the transaction it sent",
          description: "The owner of an OWNER intent in AWAITING_SIGNATURE sends exactly one of: the signed raw transaction " +
            "(`signedTransaction`, hex) of its `unsignedTransaction`, which the service checks and broadcasts " +
            "(`eth_sendRawTransaction`); or `transactionHash`, the hash of the transaction the owner's wallet already sent " +
            "(EIP-1193 `eth_sendTransaction` answers only the hash), which the service looks up on the network's node. " +
            "The intent becomes SUBMITTED with `transactionHash` and `explorerUrl`.\n\n" +
            "- Neither or both of `signedTransaction` and `transactionHash` → 400.\n" +
            "- A sent transaction must carry the intent's call: its chainId, sender (`from`), `to`, `value` and `data` " +
            "equal the intent's → else 422 `signed-transaction-mismatch` naming the first differing field (`signer` for " +
            "the sender); its nonce and fees are the wallet's choice and become the intent's. A hash the node does not " +
            "know (yet) → 422 `transaction-unknown`: retry once the wallet has sent it.\n" +
            "- The transaction must be a signed EIP-1559 transaction whose fields equal the intent's unsigned " +
            "transaction byte for byte (chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gas, to, value, data, an " +
            "empty accessList), signed by the intent's `from` → else 422 `signed-transaction-mismatch`, its detail " +
            "naming the first differing field (or `signer`), never a value.\n" +
            "- Past `expiresAt`, or already EXPIRED → 410 `transaction-intent-expired` (from then on it reads EXPIRED; nothing is broadcast).\n" +
            "- The node refuses it (nonce already used, fees too low, funds missing) → 422 `transaction-rejected` " +
            "with the node's reason; the intent stays AWAITING_SIGNATURE. The node does not answer → 503 " +
            "`chain-rpc-unavailable`; the network is no longer configured → 422 `configuration-missing`.\n" +
            "- Sending the same signed bytes (or hash) again for an intent already SUBMITTED (or later) returns it (200) " +
            "without a second broadcast; any other submission of an intent not AWAITING_SIGNATURE (a PLATFORM intent, " +
            "a final one) → 409 `invalid-state`.\n" +
            "- Only the intent's owner account may submit: a member of its workspace who may read it → 403 " +
            "`forbidden`; anyone else → 404.\n\nChecks in order: 404, 403, 409, 410, 422, 503.",
          errors: [
            TransactionIntentNotFound,
            Forbidden,
            InvalidState,
            TransactionIntentExpired,
            SignedTransactionMismatch,
            TransactionUnknown,
            TransactionRejected,
            ConfigurationMissing,
            ChainRpcUnavailable
          ]
        })
      )
  )
  .annotate(OpenApi.Title, "Wallets")
  .annotate(OpenApi.Description, "Wallets: transaction intents, read and signed by their owners")
{}
