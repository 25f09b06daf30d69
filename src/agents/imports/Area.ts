/** The agent imports area: A2A Agent Cards, MCP servers and ERC-8004 registration files into agents. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { migrations } from "./Migrations.js"
import { AgentImportsHttpLive } from "./Http.js"
import { AgentImports } from "./Imports.js"
import { AgentImportLive } from "./ImportWorkflow.js"

/** The agent imports area's handlers and workflow (see `src/Area.ts`). */
export const AgentImportsArea = {
  name: "agents/imports",
  http: AgentImportsHttpLive.pipe(Layer.provide([AgentImports.Default])),
  workflows: AgentImportLive,
  migrations
} satisfies Area
