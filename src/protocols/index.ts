/**
 * The protocols area's face: what other areas may use of it (src/mcpServer's directory tools).
 * Other areas import this module only (.dependency-cruiser.cjs, `area-internals`); its Repo stays inside.
 * - `ProtocolsApi`: the Protocols HttpApiGroup, whose endpoints' schemas and policies the MCP tools reuse.
 * - `ProtocolCatalogCache`: the cached protocol catalog (the REST handlers' own).
 */
export { ProtocolsApi } from "./Api.js"
export { ProtocolCatalogCache } from "./CatalogCache.js"
