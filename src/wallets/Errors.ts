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
