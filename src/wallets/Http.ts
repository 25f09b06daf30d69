/** HTTP handlers of the Wallets area: decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { Wallets } from "./Wallets.js"

export const WalletsHttpLive = group(Api, "Wallets", (handlers) =>
  Effect.gen(function*() {
    const wallets = yield* Wallets
    const envelope = yield* Envelope
    return handlers
      .handle("cancelWalletPolicy", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          wallets.cancelPolicy({ policyId: path.policyId, ...payload, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("getWalletProfileConfiguration", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          wallets.profileConfiguration({ walletId: path.walletPublicId, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
  }))
