/**
 * The bounties area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoBounties, DemoDisputes } from "./seed.js"

/** The bounties area's demo requests, by operationId. */
export const BountiesManifest = {
  Jobs_ResolveBountyDispute: {
    as: "admin",
    path: { bountyId: DemoBounties.release.id, disputeId: DemoDisputes.release.id },
    query: {},
    body: {
      resolution: "SPLIT",
      unitsToProvider: "150000000",
      unitsToClient: "100000000",
      reason: "Two of the three milestones were delivered as agreed.",
      expectedVersion: DemoDisputes.release.version,
      dryRun: true
    }
  }
} satisfies Record<string, ManifestOperation>
