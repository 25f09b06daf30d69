/** Wire shapes of the transaction intents' operations (the intent itself: schema/transactionIntents.ts). */
import { Schema } from "effect"
import { rule, StrictStruct, Uuid } from "../../../schema/common.js"

/** The path of one intent. */
export const IntentPath = Schema.Struct({ intentId: Uuid })

/**
 * Wallets_SubmitTransactionIntent's body, exactly one of: `signedTransaction`, the owner's signed
 * raw EIP-1559 transaction (the service broadcasts it); or `transactionHash`, the hash of the
 * transaction the owner's wallet already sent (EIP-1193 `eth_sendTransaction`, which returns
 * only the hash).
 */
export const SubmitTransactionIntentRequest = StrictStruct({
  /** `0x` + the serialized signed transaction (hex, at most 128 KiB). */
  signedTransaction: Schema.optional(
    Schema.String.pipe(Schema.pattern(/^0x([0-9a-fA-F]{2})+$/), Schema.maxLength(262_146)).annotations(
      rule("signedTransaction must be 0x and the signed transaction's bytes in hex (at most 128 KiB)")
    )
  ),
  /** `0x` + the 32-byte transaction hash (hex). */
  transactionHash: Schema.optional(
    Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{64}$/)).annotations(rule("transactionHash must be 0x and 64 hex digits"))
  )
}).pipe(
  Schema.filter((body) =>
    (body.signedTransaction === undefined) !== (body.transactionHash === undefined) ||
    { path: ["signedTransaction"], message: "give exactly one of signedTransaction and transactionHash" }
  )
).annotations({ identifier: "SubmitTransactionIntentRequest" })
