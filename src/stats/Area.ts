/** The stats area: daily figures as immutable projections. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { migrations } from "./Migrations.js"
import { StatsWorkflows } from "./DailyProjection.js"
import { StatsHttpLive } from "./Http.js"
import { StatsManifest } from "./manifest.js"
import { Stats } from "./Stats.js"

/** The stats area's handlers, manifest and daily projection cron (see `src/Area.ts`). No demo rows: it projects the others'. */
export const StatsArea = {
  name: "stats",
  http: StatsHttpLive.pipe(Layer.provide([Stats.Default])),
  manifest: StatsManifest,
  workflows: StatsWorkflows,
  migrations
} satisfies Area
