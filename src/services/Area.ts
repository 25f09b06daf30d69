/** The services area: service offers. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { ServicesHttpLive } from "./Http.js"
import { Services } from "./Services.js"
import { seedServices } from "../../demo/services/seed.js"
import { ServicesManifest } from "../../demo/services/manifest.js"

/** The services area's handlers and demo seed (see `src/Area.ts`). */
export const ServicesArea = {
  name: "services",
  http: ServicesHttpLive.pipe(Layer.provide([Services.Default])),
  seed: seedServices,
  manifest: ServicesManifest
} satisfies Area
