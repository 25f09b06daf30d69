/**
 * The jobs area's face: what other areas may use of it (src/mcpServer's `search_jobs` and `get_job` tools).
 * - `JobBoard`: the board's reads (list, get), the REST handlers' own service; requires `SqlClient`, `Cursor`.
 * - `JobBoardApi`: the JobBoard HttpApiGroup, whose endpoints' schemas and policies the MCP tools reuse.
 * - `Job`: the board's job schema.
 */
export { JobBoard } from "./board/Jobs.js"
export { JobBoardApi } from "./board/Api.js"
export { Job } from "./board/Schemas.js"
