/**
 * The partnerJobs area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoJobSources } from "./seed.js"

/** The partnerJobs area's demo requests, by operationId. */
export const PartnerJobsManifest = {
  Jobs_SyncPartnerJobSource: {
    as: "admin",
    path: { sourceId: DemoJobSources.active.id },
    query: {},
    body: { expectedVersion: DemoJobSources.active.version, reason: "Partner fixed their feed", dryRun: false, confirmation: DemoJobSources.active.code }
  }
} satisfies Record<string, ManifestOperation>
