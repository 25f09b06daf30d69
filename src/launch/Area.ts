/** The launch area: launch drafts and runs, and the outcomes of their chain transactions. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { LaunchHttpLive } from "./Http.js"
import { Launch, LaunchRunPurpose } from "./Launch.js"
import { migrations } from "./Migrations.js"
import { LaunchVenueAdaptersLive } from "./Venues.js"
import { launchRunOutcome } from "./Outcomes.js"

/** The launch area's handlers (see `src/Area.ts`). */
export const LaunchArea = {
  name: "launch",
  http: LaunchHttpLive.pipe(Layer.provide(Launch.Default), Layer.provide(LaunchVenueAdaptersLive)),
  migrations,
  intentOutcomes: { [LaunchRunPurpose]: launchRunOutcome }
} satisfies Area
