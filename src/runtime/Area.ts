/** The runtime area: the agent runtime: conversations, runs, schedules. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { migrations } from "./Migrations.js"
import { AgentRunLive } from "./loop/AgentRunWorkflow.js"
import { RunLoopRepo } from "./loop/Repo.js"
import { ToolRunnerLive } from "./tools/ToolRunner.js"
import { RuntimeHttpLive } from "./Http.js"
import { Runtime } from "./Runtime.js"
import { Runs } from "./runs/Runs.js"
import { Conversations } from "./conversations/Conversations.js"
import { RunReads } from "./runs/RunReads.js"
import { RunEventStreams } from "./events/RunEventStream.js"
import { ScheduleFiringWorkflows } from "./schedules/ScheduleFiring.js"
import { Schedules } from "./schedules/Schedules.js"
import { RunControl } from "./control/RunControl.js"
import { RuntimeConfigs } from "./config/RuntimeConfigs.js"

/** The runtime area's handlers and workflows (see `src/Area.ts`). */
export const RuntimeArea = {
  name: "runtime",
  http: RuntimeHttpLive.pipe(
    Layer.provide([
      Runtime.Default, Runs.Default, Conversations.Default, RunReads.Default, RunEventStreams.Default, Schedules.Default,
      RunControl.Default, RuntimeConfigs.Default
    ])
  ),
  // the AgentRuntime that answers runs is provided by the assembly (src/workflows.ts)
  workflows: Layer.mergeAll(AgentRunLive.pipe(Layer.provide([RunLoopRepo.Default, ToolRunnerLive])), ScheduleFiringWorkflows),
  migrations
} satisfies Area
