/**
 * Endpoint health: agents' stored endpoints probed on a schedule, the
 * probes kept as reputation evidence. No HTTP operations (the reputation projections read
 * the probes); only background work. Listed in `src/areas.ts`.
 */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { EndpointHealthWorkflows } from "./Cron.js"

/** The endpoint-health crons (see `src/Area.ts`, `./Cron.ts`). */
export const EndpointHealthArea = {
  name: "endpointHealth",
  http: Layer.empty,
  workflows: EndpointHealthWorkflows
} satisfies Area
