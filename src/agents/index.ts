/**
 * The agents area's face: what other areas may use of it (src/mcpServer's directory tools, src/runtime's built-in
 * tools). Other areas import this module only (.dependency-cruiser.cjs, `area-internals`); the area's Repos stay inside.
 * - `Agents`: the directory's agent reads (list, profile, card), the REST handlers' own service; requires `SqlClient`.
 * - `AgentsApi`: the Agents HttpApiGroup, whose endpoints' schemas and policies the MCP tools reuse.
 */
export { Agents } from "./Agents.js"
export { AgentsApi } from "./Api.js"
