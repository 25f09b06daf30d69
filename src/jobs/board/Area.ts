/** The job board area: OPEN bounties and partner jobs in one list. Listed in `src/areas.ts`. */
import type { Area } from "../../Area.js"
import { JobBoardHttpLive } from "./Http.js"
import { JobBoard } from "./Jobs.js"
import { Layer } from "effect"

/** The job board's handlers (see `src/Area.ts`); its indexes are the partnerJobs area's migration 0058. */
export const JobBoardArea = {
  name: "jobs/board",
  http: JobBoardHttpLive.pipe(Layer.provide([JobBoard.Default]))
} satisfies Area
