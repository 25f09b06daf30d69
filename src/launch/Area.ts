/** The launch area: launch runs. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { LaunchHttpLive } from "./Http.js"
import { Launch } from "./Launch.js"
import { migrations } from "./Migrations.js"

/** The launch area's handlers (see `src/Area.ts`). */
export const LaunchArea = {
  name: "launch",
  http: LaunchHttpLive.pipe(Layer.provide([Launch.Default])),
  migrations
} satisfies Area
