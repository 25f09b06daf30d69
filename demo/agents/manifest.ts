/**
 * The agents area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoWorkspaces } from "../workspaces/seed.js"
import { DemoAgents, DemoResolveLocators } from "./seed.js"

/** The agents area's demo requests, by operationId. */
export const AgentsManifest = {
  Agents_ListAgents: {
    as: "apiKey:public",
    path: {},
    query: { networks: "base", verificationStates: "VERIFIED", sort: "rank", limit: 10 },
    body: null
  },
  // the facet counts of the agents on base
  Agents_ListAgentFacets: { as: "anonymous", path: {}, query: { networks: "base" }, body: null },
  Agents_GetAgent: { as: "anonymous", path: { entityPublicId: DemoAgents[0].id }, query: {}, body: null },
  // Atlas Research published an A2A card (imported by the demo seed): it is served as published
  Agents_GetErc8004Registration: { as: "anonymous", path: { entityPublicId: DemoAgents[0].id }, query: {}, body: null },
  Agents_GetAgentCard: {
    as: "anonymous",
    path: { entityPublicId: DemoAgents[0].id },
    query: {},
    body: null,
    note: "Atlas Research published its card (an import stored it), so the answer is that card, byte for byte."
  },
  Agents_ListFavoriteAgents: { as: "owner", path: {}, query: { limit: 10 }, body: null },
  // favorites: Echo Support is not one of the owner's favorites yet; Delta Scribe is
  Agents_FavoriteAgent: { as: "owner", path: { entityPublicId: DemoAgents[4].id }, query: {}, body: null },
  Agents_UnfavoriteAgent: { as: "owner", path: { entityPublicId: DemoAgents[3].id }, query: {}, body: null },
  Agents_ResolveAgentIdentities: { as: "apiKey:public", path: {}, query: {}, body: { locators: DemoResolveLocators } },
  // analytics and activity (spec §4.3); the demo tokens are signed for the development secret
  Agents_GetPublicAgentActivity: {
    as: "anonymous",
    path: { entityPublicId: DemoAgents[0].id },
    query: { limit: 5, sourceKinds: "CHAIN_OBSERVATION" },
    body: null
  },
  // registration: a new agent of Acme; Atlas edited at its seeded version 1; Beacon retired
  Agents_CreateAgent: {
    as: "owner",
    path: {},
    query: {},
    body: {
      workspaceId: DemoWorkspaces.acme.id,
      name: "Iris Indexer",
      canonicalSlug: "iris-indexer",
      tagline: "Indexes research papers for other agents",
      description: "Iris Indexer reads new papers every night and answers questions about them.",
      links: [{ label: "Website", url: "https://iris-indexer.example" }]
    }
  },
  Agents_UpdateAgent: {
    as: "owner",
    path: { entityPublicId: DemoAgents[0].id },
    query: {},
    body: {
      expectedVersion: 1,
      tagline: "Deep research on demand, with sources",
      links: [{ label: "Documentation", url: "https://atlas-research.example/docs" }]
    }
  },
  Agents_RetireAgent: { as: "owner", path: { entityPublicId: DemoAgents[1].id }, query: {}, body: { expectedVersion: 1 } }
} satisfies Record<string, ManifestOperation>
