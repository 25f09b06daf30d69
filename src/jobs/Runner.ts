/**
 * The server's job runner: every handler and schedule of the service, with the
 * `JOBS_*` settings of AppConfig. Started by `src/main.ts`; tests start it explicitly.
 * New background work (partner syncs, exports, agent runs) adds its handlers and
 * schedules here.
 */
import type { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { type AgentRuntime, AgentRuntimeDeterministic } from "../../layers/AgentRuntime.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { type JobHandler, JobRunnerLayer } from "../../layers/JobRunner.js"
import { JobsLive } from "../../layers/Jobs.js"
import { agentRunHandler } from "../runtime/AgentRunJob.js"
import { RunsRepo } from "../runtime/RunsRepo.js"
import { purgeHandlers, purgeSchedules } from "./Purges.js"

/** Every job handler of the service. */
export const serviceJobHandlers: ReadonlyArray<JobHandler<SqlClient.SqlClient | RunsRepo | AgentRuntime>> = [
  ...purgeHandlers,
  agentRunHandler
]

/** Every cron schedule of the service. */
export const serviceJobSchedules = [...purgeSchedules]

/**
 * The runner (polling when `JOBS_ENABLED`); requires `SqlClient`, `Ids`, `AppConfig`.
 * Agent runs are answered by the deterministic runtime (`layers/AgentRuntime.ts`);
 * a model provider's layer replaces it here.
 */
export const JobRunnerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => JobRunnerLayer(serviceJobHandlers, serviceJobSchedules, config.jobs))
).pipe(Layer.provide([JobsLive, RunsRepo.Default, AgentRuntimeDeterministic]))
