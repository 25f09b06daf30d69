/** The analytics area: analytics: product events and exports. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { AnalyticsExportLive } from "./ExportWorkflow.js"
import { AnalyticsHttpLive } from "./Http.js"
import { Analytics } from "./Analytics.js"
import { seedAnalytics } from "../../../demo/social/analytics/seed.js"
import { AnalyticsManifest } from "../../../demo/social/analytics/manifest.js"

/** The analytics area's handlers, demo seed and workflows (see `src/Area.ts`). */
export const AnalyticsArea = {
  name: "social/analytics",
  http: AnalyticsHttpLive.pipe(Layer.provide([Analytics.Default])),
  seed: seedAnalytics,
  workflows: AnalyticsExportLive,
  manifest: AnalyticsManifest
} satisfies Area
