/** The mcp area: MCP connections. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { McpHttpLive } from "./Http.js"
import { Mcp } from "./Mcp.js"
import { McpOAuth } from "./McpOAuth.js"
import { McpManifest } from "./manifest.js"
import { OAuthFlowPurgeLive } from "./Purges.js"

/** The mcp area's handlers and its purge of expired OAuth flows (see `src/Area.ts`). */
export const McpArea = {
  name: "mcp",
  http: McpHttpLive.pipe(Layer.provide([Mcp.Default, McpOAuth.Default])),
  workflows: OAuthFlowPurgeLive,
  manifest: McpManifest
} satisfies Area
