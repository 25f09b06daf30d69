/** Problems of the directory's own MCP endpoint (`/mcp`, src/mcpServer/). */
import { Problem } from "../../schema/problem.js"

/**
 * 503 `mcp-sessions-full`: `MCP_MAX_SESSIONS` MCP sessions are live in this process, so a new
 * one (an `initialize` without `Mcp-Session-Id`) is refused; `Retry-After` says when the
 * least recently used one ends by idling out. Requests of live sessions are still served.
 */
export class McpSessionsFull extends Problem<McpSessionsFull>()("McpSessionsFull", {
  status: 503, type: "mcp-sessions-full", meaning: "the MCP server has no room for another session (`Retry-After`)"
}) {}
