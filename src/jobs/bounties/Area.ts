/** The bounties area: bounty disputes (admin). Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { BountyDisputesHttpLive } from "./Http.js"
import { Disputes } from "./Disputes.js"

/** The bounties area's handlers (see `src/Area.ts`). */
export const BountiesArea = {
  name: "jobs/bounties",
  http: BountyDisputesHttpLive.pipe(Layer.provide([Disputes.Default]))
} satisfies Area
