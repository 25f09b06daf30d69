/** The admin area: the workflow executions (admin: list, retry) and the purges. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { WorkflowExecutions } from "./Executions.js"
import { PurgeCrons } from "./Purges.js"
import { AdminHttpLive } from "./Http.js"
import { JobRetry } from "./Retry.js"

/** The admin area's handlers and cron jobs (see `src/Area.ts`). */
export const AdminArea = {
  name: "admin",
  http: AdminHttpLive.pipe(Layer.provide(JobRetry.Default), Layer.provide(WorkflowExecutions.Default)),
  workflows: PurgeCrons
} satisfies Area
