/**
 * The reputation area's entries of the demo manifest (`demo/manifest.ts`): one request per
 * operation that succeeds on a freshly seeded database (the examples of `/docs`).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoAgents } from "../../agents/seed.js"

const atlas = DemoAgents[0].id

/** The reputation area's demo requests, by operationId. */
export const ReputationManifest = {
  Trust_GetAgentTrust: {
    as: "anonymous",
    path: { entityPublicId: atlas },
    query: {},
    body: null,
    note: "Atlas Research's trust, from its PUBLISHED demo feedback."
  },
  Trust_GetAgentRank: {
    as: "apiKey:public",
    path: { entityPublicId: atlas },
    query: {},
    body: null
  },
  Trust_GetAgentPerformance: {
    as: "anonymous",
    path: { entityPublicId: atlas },
    query: {},
    body: null
  }
} satisfies Record<string, ManifestOperation>
