/**
 * The jobs area's face: what other areas may use of it (src/mcpServer's `search_jobs` and `get_job` tools,
 * the runtime's built-in tools `jobs.claim_bounty` and `jobs.submit_delivery`).
 * - `JobBoard`: the board's reads (list, get), the REST handlers' own service; requires `SqlClient`, `Cursor`.
 * - `JobBoardApi`: the JobBoard HttpApiGroup, whose endpoints' schemas and policies the MCP tools reuse.
 * - `Job`: the board's job schema.
 * - `Bounties`: the bounty commands and reads, as Jobs_ClaimBounty and Jobs_SubmitBountyDelivery run them;
 *   requires `SqlClient`, `Ids`, `Cursor`, `TransactionIntents`, `PlatformSigner`, `Chain`, `BountySettings`.
 * - `Bounty`, `SubmitBountyDeliveryRequest`: the bounty's wire schema and Jobs_SubmitBountyDelivery's body.
 */
export { JobBoard } from "./board/Jobs.js"
export { JobBoardApi } from "./board/Api.js"
export { Job } from "./board/Schemas.js"
export { Bounties } from "./bounties/Bounties.js"
export { Bounty, SubmitBountyDeliveryRequest } from "./bounties/Schemas.js"
