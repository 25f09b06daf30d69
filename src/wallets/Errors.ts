/**
 * The problem causes of Wallets (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `wallet-not-found`: no such wallet (of the caller's, for the owner's operations). */
export class WalletNotFound extends Problem<WalletNotFound>()("WalletNotFound", {
  status: 404, type: "wallet-not-found", meaning: "no such wallet (of the caller's, for the owner's operations)"
}) {}
/** 404 `wallet-policy-not-found`: no such policy of one of the caller's wallets. */
export class WalletPolicyNotFound extends Problem<WalletPolicyNotFound>()("WalletPolicyNotFound", {
  status: 404, type: "wallet-policy-not-found", meaning: "no such policy of one of the caller's wallets"
}) {}
/** 409 `wallet-already-registered`: the address is already a registered wallet on that network. */
export class WalletAlreadyRegistered extends Problem<WalletAlreadyRegistered>()("WalletAlreadyRegistered", {
  status: 409, type: "wallet-already-registered", meaning: "the address is already a registered wallet on that network"
}) {}
/** 409 `nonce-used`: the sign-in message's nonce has already proven a wallet (a message proves once). */
export class NonceUsed extends Problem<NonceUsed>()("NonceUsed", {
  status: 409, type: "nonce-used", meaning: "the sign-in message's nonce was already used (a message proves once)"
}) {}
/** 404 `wallet-profile-not-found`: no PUBLIC profile of that address on that network. */
export class WalletProfileNotFound extends Problem<WalletProfileNotFound>()("WalletProfileNotFound", {
  status: 404, type: "wallet-profile-not-found", meaning: "no public profile of that address on that network"
}) {}
/** 409 `own-wallet-profile`: an account does not follow the profile of its own wallet. */
export class OwnWalletProfile extends Problem<OwnWalletProfile>()("OwnWalletProfile", {
  status: 409, type: "own-wallet-profile", meaning: "an account does not follow the profile of its own wallet"
}) {}
