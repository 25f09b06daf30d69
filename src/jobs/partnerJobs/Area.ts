/** The partnerJobs area: partner job sources and their sync. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { PartnerJobSyncWorkflows } from "./Sync.js"
import { PartnerJobSourcesHttpLive } from "./Http.js"
import { Sources } from "./Sources.js"
import { migrations } from "./Migrations.js"

/** The partnerJobs area's handlers and workflows (see `src/Area.ts`). */
export const PartnerJobsArea = {
  name: "jobs/partnerJobs",
  http: PartnerJobSourcesHttpLive.pipe(Layer.provide([Sources.Default])),
  workflows: PartnerJobSyncWorkflows,
  migrations
} satisfies Area
