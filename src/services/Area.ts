/** The services area: service offers, their prices, terms and states. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { ServicesHttpLive } from "./Http.js"
import { migrations } from "./Migrations.js"
import { Services } from "./Services.js"

/** The services area's handlers (see `src/Area.ts`). */
export const ServicesArea = {
  name: "services",
  http: ServicesHttpLive.pipe(Layer.provide([Services.Default])),
  migrations
} satisfies Area
