/** HTTP handlers of transaction intents (Wallets_GetTransactionIntent, Wallets_SubmitTransactionIntent): decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { WalletIntents } from "./WalletIntents.js"

export const WalletIntentsHttpLive = group(Api, "WalletIntents", (handlers) =>
  Effect.gen(function*() {
    const intents = yield* WalletIntents
    const envelope = yield* Envelope
    return handlers
      .handle("getTransactionIntent", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          intents.get(path.intentId, session.accountId).pipe(Effect.flatMap(envelope.data))))
      .handle("submitTransactionIntent", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          intents.submit({
            intentId: path.intentId,
            accountId: session.accountId,
            transaction: payload.transactionHash !== undefined
              ? { _tag: "Sent", hash: payload.transactionHash }
              : { _tag: "Signed", raw: payload.signedTransaction! }
          }).pipe(
            Effect.flatMap(envelope.data)
          )))
  }))
