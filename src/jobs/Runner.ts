/**
 * The server's job runner: every area's job handlers and schedules (`Area.jobs` of
 * `src/areas.ts`), with the `JOBS_*` settings of AppConfig. Started by `src/main.ts`;
 * tests start it explicitly.
 */
import { Effect, Layer } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { JobRunnerLayer } from "../../layers/JobRunner.js"
import { JobsLive } from "../../layers/Jobs.js"
import type { Area } from "../Area.js"
import { areas } from "../areas.js"

/** The handlers of the areas, typed with what each requires. */
type AreaJobHandler = Extract<(typeof areas)[number], { readonly jobs: unknown }>["jobs"]["handlers"][number]

const jobsOf = (areas as ReadonlyArray<Area>).flatMap((area) => area.jobs === undefined ? [] : [area.jobs])

/** Every job handler of the service. */
export const serviceJobHandlers = jobsOf.flatMap((jobs) => jobs.handlers) as ReadonlyArray<AreaJobHandler>

/** Every cron schedule of the service. */
export const serviceJobSchedules = jobsOf.flatMap((jobs) => jobs.schedules ?? [])

/** The runner (polling when `JOBS_ENABLED`); requires `SqlClient`, `Ids`, `AppConfig`. */
export const JobRunnerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => JobRunnerLayer(serviceJobHandlers, serviceJobSchedules, config.jobs))
).pipe(Layer.provide(JobsLive))
