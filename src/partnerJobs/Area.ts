/** The partnerJobs area: partner job sources and their sync. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { partnerJobHandlers, partnerJobSchedules } from "./Sync.js"
import { PartnerJobSourcesHttpLive } from "./Http.js"
import { Sources } from "./Sources.js"
import { seedPartnerJobSources } from "./demo.js"
import { PartnerJobsManifest } from "./manifest.js"

/** The partnerJobs area's handlers, demo seed and jobs (see `src/Area.ts`). */
export const PartnerJobsArea = {
  name: "partnerJobs",
  http: PartnerJobSourcesHttpLive.pipe(Layer.provide([Sources.Default])),
  seed: seedPartnerJobSources,
  jobs: { handlers: partnerJobHandlers, schedules: partnerJobSchedules },
  manifest: PartnerJobsManifest
} satisfies Area
