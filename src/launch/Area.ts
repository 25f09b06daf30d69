/** The launch area: launch runs. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { LaunchHttpLive } from "./Http.js"
import { Launch } from "./Launch.js"
import { seedLaunchRuns } from "../../demo/launch/seed.js"
import { LaunchManifest } from "../../demo/launch/manifest.js"

/** The launch area's handlers and demo seed (see `src/Area.ts`). */
export const LaunchArea = {
  name: "launch",
  http: LaunchHttpLive.pipe(Layer.provide([Launch.Default])),
  seed: seedLaunchRuns,
  manifest: LaunchManifest
} satisfies Area
