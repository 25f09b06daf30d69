/**
 * The agent imports' entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoAgents } from "../seed.js"
import { DemoImports } from "./seed.js"

/** The agent imports' demo requests, by operationId. */
export const AgentImportsManifest = {
  Agents_ImportAgentSource: {
    as: "owner",
    path: { entityPublicId: DemoAgents[0].id },
    query: {},
    body: { kind: "A2A_AGENT_CARD", url: "https://atlas-research.example/.well-known/agent-card.json" },
    note: "the import is QUEUED; `.example` hosts do not resolve, so on the demo it then FAILS with `network-error`."
  },
  Agents_GetAgentImport: {
    as: "owner",
    path: { entityPublicId: DemoAgents[0].id, importId: DemoImports.atlasCard.id },
    query: {},
    body: null
  }
} satisfies Record<string, ManifestOperation>
