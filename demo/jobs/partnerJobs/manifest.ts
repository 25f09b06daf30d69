/**
 * The partnerJobs area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoJobSources } from "./seed.js"

/** The partnerJobs area's demo requests, by operationId. */
export const PartnerJobsManifest = {
  Jobs_CreatePartnerJobSource: {
    as: "admin",
    path: {},
    query: {},
    body: {
      code: "taskhub",
      displayName: "TaskHub",
      websiteUrl: "https://taskhub.example",
      endpointUrl: "https://taskhub.example/feeds/agent-jobs.json",
      responseSchemaVersion: 2,
      pollIntervalSeconds: 1800
    }
  },
  Jobs_ListPartnerJobSources: { as: "admin", path: {}, query: {}, body: null },
  Jobs_UpdatePartnerJobSource: {
    as: "admin",
    path: { sourceId: DemoJobSources.paused.id },
    query: {},
    body: { expectedVersion: DemoJobSources.paused.version, state: "ACTIVE", pollIntervalSeconds: 3600 }
  },
  Jobs_SyncPartnerJobSource: {
    as: "admin",
    path: { sourceId: DemoJobSources.active.id },
    query: {},
    body: { expectedVersion: DemoJobSources.active.version, reason: "Partner fixed their feed", dryRun: false, confirmation: DemoJobSources.active.code }
  }
} satisfies Record<string, ManifestOperation>
