/**
 * The MCP area's face: what other areas may use of it (agent imports, endpoint health, the runtime's tool calls).
 * Other areas import this module only (.dependency-cruiser.cjs, `area-internals`); its Repos stay inside.
 * - `fetchCatalog`, `pingServer` (and `ObservedCatalog`, `McpTransport`): the MCP client over the guarded outbound fetch;
 *   they fail with `CatalogFetchFailure` (its `code`: `timeout`, `auth-required`, ...).
 * - `McpConnections`: an agent's MCP connections (`ensureForAgent` for an imported server).
 * - `McpToolCalls`: `tools/call` on a connection for an agent run, never failing (the outcome carries the error).
 * - `toolDigest`: the `sha256:` digest of a tool definition (canonical JSON).
 * - `recordEndpointNotMcp`, `NotMcpCodes`: an ENDPOINT_NOT_MCP finding for a URL that did not answer as an MCP
 *   server (the failure codes that mean so), in the caller's transaction.
 * - `resolveApprovedChanges`: resolves TOOL_DEFINITION_CHANGED findings of definitions a person approved, in the
 *   approval's transaction.
 */
export { fetchCatalog, type McpTransport, type ObservedCatalog, pingServer } from "./Client.js"
export { McpConnections } from "./connections/Connections.js"
export { toolDigest } from "./RuntimeTools.js"
export { McpToolCalls } from "./ToolCalls.js"
export { McpSettings } from "./Config.js"
export { recordEndpointNotMcp, resolveApprovedChanges } from "./findings/Findings.js"
export { NotMcpCodes } from "./findings/Heuristics.js"
