/**
 * The reputation area: an agent's trust, rank and performance,
 * projected from its evidence. Listed in `src/areas.ts`; its demo seed step
 * (`demo/areas.ts`, after the trust area's) projects the demo evidence of the areas before it.
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { migrations } from "./Migrations.js"
import { ReputationHttpLive } from "./Http.js"
import { ReputationWorkflows } from "./Projector.js"
import { Reputation } from "./Reputation.js"

/** The reputation area's handlers and projector (see `src/Area.ts`). */
export const ReputationArea = {
  name: "trust/reputation",
  http: ReputationHttpLive.pipe(Layer.provide([Reputation.Default])),
  workflows: ReputationWorkflows,
  migrations
} satisfies Area
