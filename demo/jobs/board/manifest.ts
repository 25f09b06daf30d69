/**
 * The job board's entries of the demo manifest (`demo/manifest.ts`): for each of its operations, one request
 * that succeeds on a freshly seeded database (the example of `/docs`, checked by test/demo/Manifest.test.ts).
 * The board reads the partner jobs of demo/jobs/partnerJobs/seed.ts.
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoPartnerJobs } from "../partnerJobs/seed.js"

/** The job board's demo requests, by operationId. */
export const JobBoardManifest = {
  Jobs_ListJobs: {
    as: "apiKey:public",
    path: {},
    query: { q: "research", skills: "research", limit: 10 },
    body: null
  },
  Jobs_GetJob: { as: "anonymous", path: { jobId: DemoPartnerJobs.research.id }, query: {}, body: null }
} satisfies Record<string, ManifestOperation>
