/**
 * The server's job runner: every handler and schedule of the service, with the
 * `JOBS_*` settings of AppConfig. Started by `src/main.ts`; tests start it explicitly.
 * New background work (partner syncs, exports, agent runs) adds its handlers and
 * schedules here.
 */
import { Effect, Layer } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { JobRunnerLayer } from "../../layers/JobRunner.js"
import { JobsLive } from "../../layers/Jobs.js"
import { exportHandlers } from "../analytics/ExportJob.js"
import { purgeHandlers, purgeSchedules } from "./Purges.js"

/** Every job handler of the service. */
export const serviceJobHandlers = [...purgeHandlers, ...exportHandlers]

/** Every cron schedule of the service. */
export const serviceJobSchedules = [...purgeSchedules]

/** The runner (polling when `JOBS_ENABLED`); requires `SqlClient`, `Ids`, `AppConfig`. */
export const JobRunnerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => JobRunnerLayer(serviceJobHandlers, serviceJobSchedules, config.jobs))
).pipe(Layer.provide(JobsLive))
