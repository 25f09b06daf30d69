/** The runtime area: the agent runtime: conversations, runs, schedules. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { AgentRunLive } from "./AgentRunWorkflow.js"
import { RunsRepo } from "./RunsRepo.js"
import { RuntimeHttpLive } from "./Http.js"
import { Runtime } from "./Runtime.js"
import { Runs } from "./Runs.js"
import { RuntimeConfigs } from "./RuntimeConfigs.js"
import { seedRuntimeDemoData } from "./seed.js"
import { RuntimeManifest } from "./manifest.js"

/** The runtime area's handlers, demo seed and workflows (see `src/Area.ts`). */
export const RuntimeArea = {
  name: "runtime",
  http: RuntimeHttpLive.pipe(Layer.provide([Runtime.Default, Runs.Default, RuntimeConfigs.Default])),
  seed: seedRuntimeDemoData,
  // the AgentRuntime that answers runs is provided by the assembly (src/workflows.ts)
  workflows: AgentRunLive.pipe(Layer.provide(RunsRepo.Default)),
  manifest: RuntimeManifest
} satisfies Area
