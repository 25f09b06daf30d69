/** The mcp area: MCP connections. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { migrations } from "./Migrations.js"
import { McpHttpLive } from "./Http.js"
import { Mcp } from "./Mcp.js"
import { McpOAuth } from "./oauth/McpOAuth.js"
import { OAuthFlowPurgeLive } from "./oauth/Purges.js"
import { McpConnections } from "./connections/Connections.js"
import { McpCatalogRefreshWorkflows } from "./catalog/Refresh.js"

/** The mcp area's handlers, its purge of expired OAuth flows and its catalog fetches (see `src/Area.ts`). */
export const McpArea = {
  name: "mcp",
  http: McpHttpLive.pipe(Layer.provide([Mcp.Default, McpConnections.Default, McpOAuth.Default])),
  workflows: Layer.mergeAll(OAuthFlowPurgeLive, McpCatalogRefreshWorkflows),
  migrations
} satisfies Area
