/** HTTP handlers of wallet policies (Wallets_CreateWalletPolicy, Wallets_GetWalletPolicy): decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { WalletPolicies } from "./Policies.js"

export const WalletPoliciesHttpLive = group(Api, "WalletPolicies", (handlers) =>
  Effect.gen(function*() {
    const policies = yield* WalletPolicies
    const envelope = yield* Envelope
    return handlers
      .handle("createWalletPolicy", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          policies.create({ ...payload, walletId: path.walletPublicId, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("getWalletPolicy", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          policies.get({ policyId: path.policyId, accountId: session.accountId }).pipe(Effect.flatMap(envelope.data))))
  }))
