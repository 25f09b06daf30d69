/** HTTP handlers of wallet registration (Wallets_RegisterWallet, Wallets_ListWallets): decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { WalletRegistration } from "./Registration.js"

export const WalletRegistrationHttpLive = group(Api, "WalletRegistration", (handlers) =>
  Effect.gen(function*() {
    const registration = yield* WalletRegistration
    const envelope = yield* Envelope
    return handlers
      .handle("registerWallet", ({ payload }) =>
        Effect.flatMap(currentSession, (session) =>
          registration.register({ ...payload, accountId: session.accountId }).pipe(Effect.flatMap(envelope.data))))
      .handle("listWallets", ({ urlParams }) =>
        Effect.flatMap(currentSession, (session) =>
          registration.list({ ...urlParams, accountId: session.accountId }).pipe(
            Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
          )))
  }))
