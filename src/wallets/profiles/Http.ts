/**
 * HTTP handlers of wallet public profiles (Wallets_UpdateWalletProfile, Wallets_GetWalletPublicProfile,
 * Wallets_FollowWallet, Wallets_UnfollowWallet): decode → service → envelope.
 */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { CurrentPrincipal, currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { WalletProfiles } from "./Profiles.js"

export const WalletProfilesHttpLive = group(Api, "WalletProfiles", (handlers) =>
  Effect.gen(function*() {
    const profiles = yield* WalletProfiles
    const envelope = yield* Envelope
    return handlers
      .handle("updateWalletProfile", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          profiles.update({ ...payload, walletId: path.walletPublicId, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("getWalletPublicProfile", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          profiles.read(path, principal._tag === "Session" ? principal.accountId : null).pipe(Effect.flatMap(envelope.data))))
      .handle("followWallet", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          profiles.follow(path, session.accountId).pipe(Effect.flatMap(envelope.data))))
      .handle("unfollowWallet", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          profiles.unfollow(path, session.accountId).pipe(Effect.flatMap(envelope.data))))
  }))
