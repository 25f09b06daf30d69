/** The procurement area: procurement intents. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { ProcurementHttpLive } from "./Http.js"
import { Procurement } from "./Procurement.js"
import { ProcurementProvidersDemo } from "../../layers/ProcurementProvider.js"

/** The procurement area's handlers (see `src/Area.ts`). */
export const ProcurementArea = {
  name: "procurement",
  http: ProcurementHttpLive.pipe(Layer.provide(Procurement.Default.pipe(Layer.provide(ProcurementProvidersDemo))))
} satisfies Area
