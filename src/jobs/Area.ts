/** The jobs area: the job runs (admin) and the purges. Listed in `src/areas.ts`. */
import type { Area } from "../Area.js"
import { purgeHandlers, purgeSchedules } from "./Purges.js"
import { AdminHttpLive } from "./Http.js"
import { JobsManifest } from "./manifest.js"

/** The jobs area's handlers and jobs (see `src/Area.ts`). */
export const JobsArea = {
  name: "jobs",
  http: AdminHttpLive,
  jobs: { handlers: purgeHandlers, schedules: purgeSchedules },
  manifest: JobsManifest
} satisfies Area
