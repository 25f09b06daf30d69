/** The analytics area: analytics: product events and exports. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { exportHandlers } from "./ExportJob.js"
import { AnalyticsHttpLive } from "./Http.js"
import { Analytics } from "./Analytics.js"
import { seedAnalytics } from "./seed.js"
import { AnalyticsManifest } from "./manifest.js"

/** The analytics area's handlers, demo seed and jobs (see `src/Area.ts`). */
export const AnalyticsArea = {
  name: "analytics",
  http: AnalyticsHttpLive.pipe(Layer.provide([Analytics.Default])),
  seed: seedAnalytics,
  jobs: { handlers: exportHandlers },
  manifest: AnalyticsManifest
} satisfies Area
