/**
 * The registry area's face: the MCP subregistry (MCP Registry read API v0.1) and its upstream
 * sources. Other areas import only this module.
 * - `RegistryApi`, `UpstreamSourcesApi`: the HttpApiGroups.
 * - `ServerResponse`, `ServerList`, `EvidenceKey`: the v0.1 wire shapes and our `_meta` key.
 */
export { RegistryApi } from "./Api.js"
export { UpstreamSourcesApi } from "./upstream/Api.js"
export { EvidenceKey, ServerList, ServerResponse } from "./Schemas.js"
