/**
 * The problem causes of the MCP subregistry (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `mcp-server-not-found`: no server of that name (or no such version of it). */
export class McpServerNotFound extends Problem<McpServerNotFound>()("McpServerNotFound", {
  status: 404, type: "mcp-server-not-found", meaning: "no MCP server of that name, or no such version of it"
}) {}
