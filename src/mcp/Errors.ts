/**
 * The problem causes of MCP connections (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `connection-not-found`: no such MCP connection of the agent. */
export class ConnectionNotFound extends Problem<ConnectionNotFound>()("ConnectionNotFound", {
  status: 404, type: "connection-not-found", meaning: "no such MCP connection of the agent"
}) {}

/** 409 `connection-exists`: the agent already has an MCP connection to this server URL. */
export class ConnectionExists extends Problem<ConnectionExists>()("ConnectionExists", {
  status: 409, type: "connection-exists", meaning: "the agent already has an MCP connection to this server URL"
}) {}
