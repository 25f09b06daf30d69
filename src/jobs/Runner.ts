/**
 * The server's job runner: every handler and schedule of the service, with the
 * `JOBS_*` settings of AppConfig. Started by `src/main.ts`; tests start it explicitly.
 * New background work (partner syncs, exports, agent runs) adds its handlers and
 * schedules here.
 */
import { Effect, Layer } from "effect"
import { AgentRuntimeDeterministic } from "../../layers/AgentRuntime.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { JobRunnerLayer, provideJobHandler } from "../../layers/JobRunner.js"
import { JobsLive } from "../../layers/Jobs.js"
import { exportHandlers } from "../analytics/ExportJob.js"
import { partnerJobHandlers, partnerJobSchedules } from "../partnerJobs/Sync.js"
import { agentRunHandler } from "../runtime/AgentRunJob.js"
import { RunsRepo } from "../runtime/RunsRepo.js"
import { purgeHandlers, purgeSchedules } from "./Purges.js"

/**
 * Every job handler of the service. Agent runs are answered by the deterministic
 * runtime (`layers/AgentRuntime.ts`); a model provider's layer replaces it here.
 */
export const serviceJobHandlers = [
  ...purgeHandlers,
  ...partnerJobHandlers,
  ...exportHandlers,
  provideJobHandler(agentRunHandler, Layer.merge(RunsRepo.Default, AgentRuntimeDeterministic))
]

/** Every cron schedule of the service. */
export const serviceJobSchedules = [...purgeSchedules, ...partnerJobSchedules]

/** The runner (polling when `JOBS_ENABLED`); requires `SqlClient`, `Ids`, `AppConfig`. */
export const JobRunnerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => JobRunnerLayer(serviceJobHandlers, serviceJobSchedules, config.jobs))
).pipe(Layer.provide(JobsLive))
