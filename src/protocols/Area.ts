/** The protocols area: the protocol catalog. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { ProtocolsHttpLive } from "./Http.js"
import { ProtocolCatalogCache } from "./CatalogCache.js"
import { seedProtocols } from "../../demo/protocols/seed.js"
import { ProtocolsManifest } from "../../demo/protocols/manifest.js"

/** The protocols area's handlers and demo seed (see `src/Area.ts`). */
export const ProtocolsArea = {
  name: "protocols",
  http: ProtocolsHttpLive.pipe(Layer.provide([ProtocolCatalogCache.Default])),
  seed: seedProtocols,
  manifest: ProtocolsManifest
} satisfies Area
