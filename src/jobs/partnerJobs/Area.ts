/** The partnerJobs area: partner job sources and their sync. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { PartnerJobSyncWorkflows } from "./Sync.js"
import { PartnerJobSourcesHttpLive } from "./Http.js"
import { Sources } from "./Sources.js"
import { seedPartnerJobSources } from "../../../demo/jobs/partnerJobs/seed.js"
import { PartnerJobsManifest } from "../../../demo/jobs/partnerJobs/manifest.js"

/** The partnerJobs area's handlers, demo seed and workflows (see `src/Area.ts`). */
export const PartnerJobsArea = {
  name: "jobs/partnerJobs",
  http: PartnerJobSourcesHttpLive.pipe(Layer.provide([Sources.Default])),
  seed: seedPartnerJobSources,
  workflows: PartnerJobSyncWorkflows,
  manifest: PartnerJobsManifest
} satisfies Area
