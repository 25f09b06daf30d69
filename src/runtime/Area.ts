/** The runtime area: the agent runtime: conversations, runs, schedules. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { AgentRuntimeDeterministic } from "../../layers/AgentRuntime.js"
import { provideJobHandler } from "../../layers/JobRunner.js"
import { agentRunHandler } from "./AgentRunJob.js"
import { RunsRepo } from "./RunsRepo.js"
import { RuntimeHttpLive } from "./Http.js"
import { Runtime } from "./Runtime.js"
import { Runs } from "./Runs.js"
import { seedRuntimeDemoData } from "./seed.js"
import { RuntimeManifest } from "./manifest.js"

/** The runtime area's handlers, demo seed and jobs (see `src/Area.ts`). */
export const RuntimeArea = {
  name: "runtime",
  http: RuntimeHttpLive.pipe(Layer.provide([Runtime.Default, Runs.Default])),
  seed: seedRuntimeDemoData,
  jobs: {
    // agent runs are answered by the deterministic runtime; a model provider's layer replaces it here
    handlers: [provideJobHandler(agentRunHandler, Layer.merge(RunsRepo.Default, AgentRuntimeDeterministic))]
  },
  manifest: RuntimeManifest
} satisfies Area
