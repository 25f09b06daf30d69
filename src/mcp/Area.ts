/** The mcp area: MCP connections. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { McpHttpLive } from "./Http.js"
import { Mcp } from "./Mcp.js"
import { McpManifest } from "./manifest.js"

/** The mcp area's handlers (see `src/Area.ts`). */
export const McpArea = {
  name: "mcp",
  http: McpHttpLive.pipe(Layer.provide([Mcp.Default])),
  manifest: McpManifest
} satisfies Area
