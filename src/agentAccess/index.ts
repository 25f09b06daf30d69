/**
 * The agent access kernel: who may act on an operated agent's operations, shared by the agents, runtime and MCP
 * areas (and their sub-features). It imports no area, so each of those areas can depend on it without depending on
 * another area.
 *
 * - {@link AgentOperators}: the access check (404 `agent-not-found` when the caller is not an ACTIVE member of the
 *   agent's operating workspace, 403 `role-required` when the role does not allow the action); requires `SqlClient`.
 * - {@link requireRole}, {@link requireActiveAgent}: the checks on an `AgentAccess` already read.
 * - {@link agentVisibility}: the contract sentence every such operation's description repeats.
 */
export * from "./Operators.js"
export { agentVisibility } from "./AgentVisibilityApi.js"
