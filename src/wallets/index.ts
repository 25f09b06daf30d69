/**
 * The wallets area's face: what other areas may use of it.
 * Other areas import this module only (.dependency-cruiser.cjs, `area-internals`); its Repos stay inside.
 * - `WalletRelationProofs`: records the wallet-agent relation a proof establishes, in the caller's transaction
 *   (src/agents/identities); requires `SqlClient`.
 */
export { WalletRelationProofs } from "./relations/RelationProofs.js"
/** `IntentPolicyLive`: the wallet policies the platform's signer enforces (layers/TransactionIntents.ts `IntentPolicy`). */
export { IntentPolicyLive } from "./policies/Enforcement.js"
