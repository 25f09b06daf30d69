/** The analytics area: analytics: product events and exports. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { AnalyticsExportLive } from "./ExportWorkflow.js"
import { AnalyticsHttpLive } from "./Http.js"
import { Analytics } from "./Analytics.js"

/** The analytics area's handlers and workflows (see `src/Area.ts`). */
export const AnalyticsArea = {
  name: "social/analytics",
  http: AnalyticsHttpLive.pipe(Layer.provide([Analytics.Default])),
  workflows: AnalyticsExportLive
} satisfies Area
