/**
 * The trust area's face (with its reputation sub-feature): what other areas may use of it.
 * Other areas import this module only (.dependency-cruiser.cjs, `area-internals`); its Repos stay inside.
 * - `markAgentEvidence(agentId, at)`: marks an agent's reputation evidence changed, inside the transaction that writes it
 *   (fails with `SqlError`; requires `SqlClient`): every write that changes an agent's evidence calls it.
 * - `applyVerificationRule(agentIds | "all", at)`: recomputes verification states, answering the ids that changed
 *   (fails with `SqlError`).
 * - `Reputation`, `ReputationApi`: the reputation reads and the Reputation HttpApiGroup (src/mcpServer's tools).
 */
export { ReputationApi } from "./reputation/Api.js"
export { markAgentEvidence } from "./reputation/Evidence.js"
export { Reputation } from "./reputation/Reputation.js"
export { applyVerificationRule } from "./reputation/VerificationRule.js"
