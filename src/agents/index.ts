/**
 * The agents area's face: what other areas may use of it (src/mcpServer's directory tools, src/runtime's built-in
 * tools). Other areas import this module only (.dependency-cruiser.cjs, `area-internals`); the area's Repos stay inside.
 * - `Agents`: the directory's agent reads (list, profile, card), the REST handlers' own service; requires `SqlClient`.
 * - `AgentsApi`: the Agents HttpApiGroup, whose endpoints' schemas and policies the MCP tools reuse.
 */
export { Agents } from "./Agents.js"
export { AgentsApi } from "./Api.js"
/**
 * `recordProvenRegistryToken`: binds a registry token the chain shows the agent's owner holds as the agent's proven
 * REGISTRY_TOKEN identity (src/launch's runs), in the caller's transaction; requires `SqlClient`, `Ids`.
 * `proveTokenOwner`, `SignatureInvalid`, `SignerNotTokenOwner`: the EIP-191 + `ownerOf` proof of a registry token.
 */
export { recordProvenRegistryToken, type ProvenRegistryToken } from "./identities/RegistryTokens.js"
export { proveTokenOwner } from "./identities/proofs/Evm.js"
export { SignatureInvalid, SignerNotTokenOwner } from "./Errors.js"
