/** The bounties area: bounty disputes (admin). Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { BountyDisputesHttpLive } from "./Http.js"
import { Disputes } from "./Disputes.js"
import { seedBountyDisputes } from "../../../demo/jobs/bounties/seed.js"
import { BountiesManifest } from "../../../demo/jobs/bounties/manifest.js"

/** The bounties area's handlers and demo seed (see `src/Area.ts`). */
export const BountiesArea = {
  name: "jobs/bounties",
  http: BountyDisputesHttpLive.pipe(Layer.provide([Disputes.Default])),
  seed: seedBountyDisputes,
  manifest: BountiesManifest
} satisfies Area
