/**
 * The agents area's entries of the demo manifest (`src/db/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../Area.js"
import { DemoAgents, DemoResolveLocators } from "./demo.js"

/** The agents area's demo requests, by operationId. */
export const AgentsManifest = {
  Agents_ListAgents: {
    as: "apiKey:public",
    path: {},
    query: { networks: "base", verificationStates: "VERIFIED", sort: "rank", limit: 10 },
    body: null
  },
  Agents_GetAgent: { as: "anonymous", path: { entityPublicId: DemoAgents[0].id }, query: {}, body: null },
  Agents_ListFavoriteAgents: { as: "owner", path: {}, query: { limit: 10 }, body: null },
  Agents_ResolveAgentIdentities: { as: "apiKey:public", path: {}, query: {}, body: { locators: DemoResolveLocators } },
  // analytics and activity (issue 11); the demo tokens are signed for the development secret
  Agents_GetPublicAgentActivity: {
    as: "anonymous",
    path: { entityPublicId: DemoAgents[0].id },
    query: { limit: 5, sourceKinds: "CHAIN_OBSERVATION" },
    body: null
  }
} satisfies Record<string, ManifestOperation>
