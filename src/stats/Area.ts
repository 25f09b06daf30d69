/** The stats area: daily figures as immutable projections. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { migrations } from "./Migrations.js"
import { StatsWorkflows } from "./DailyProjection.js"
import { StatsHttpLive } from "./Http.js"
import { Stats } from "./Stats.js"

/** The stats area's handlers and daily projection cron (see `src/Area.ts`). */
export const StatsArea = {
  name: "stats",
  http: StatsHttpLive.pipe(Layer.provide([Stats.Default])),
  workflows: StatsWorkflows,
  migrations
} satisfies Area
