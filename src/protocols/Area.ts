/** The protocols area: the protocol catalog. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { ProtocolsHttpLive } from "./Http.js"
import { ProtocolCatalogCache } from "./CatalogCache.js"

/** The protocols area's handlers (see `src/Area.ts`). */
export const ProtocolsArea = {
  name: "protocols",
  http: ProtocolsHttpLive.pipe(Layer.provide([ProtocolCatalogCache.Default]))
} satisfies Area
