/** Wire shapes of the transaction intents' operations (the intent itself: schema/transactionIntents.ts). */
import { Schema } from "effect"
import { StrictStruct, Uuid } from "../../../schema/common.js"

/** The path of one intent. */
export const IntentPath = Schema.Struct({ intentId: Uuid })

/** Wallets_SubmitTransactionIntent's body: the owner's signed raw EIP-1559 transaction. */
export const SubmitTransactionIntentRequest = StrictStruct({
  /** `0x` + the serialized signed transaction (hex, at most 128 KiB). */
  signedTransaction: Schema.String.pipe(Schema.pattern(/^0x([0-9a-fA-F]{2})+$/), Schema.maxLength(262_146))
}).annotations({ identifier: "SubmitTransactionIntentRequest" })
