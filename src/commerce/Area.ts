/** The commerce area: orders. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { CommerceHttpLive } from "./Http.js"
import { CommerceRepo } from "./Repo.js"
import { seedCommerce } from "../../demo/commerce/seed.js"
import { CommerceManifest } from "../../demo/commerce/manifest.js"

/** The commerce area's handlers and demo seed (see `src/Area.ts`). */
export const CommerceArea = {
  name: "commerce",
  http: CommerceHttpLive.pipe(Layer.provide([CommerceRepo.Default])),
  seed: seedCommerce,
  manifest: CommerceManifest
} satisfies Area
