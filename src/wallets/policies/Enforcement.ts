/**
 * The wallets area's check of every intent the platform would sign (layers/TransactionIntents.ts
 * `IntentPolicy`): the sending wallet's COMPLETE policy (spec §2.8).
 */
import { Effect, Layer } from "effect"
import { IntentPolicy } from "../../../layers/TransactionIntents.js"

/** Wallet policies enforced on the platform's signatures (provided by the root). */
export const IntentPolicyLive = Layer.succeed(IntentPolicy, { check: () => Effect.void })
