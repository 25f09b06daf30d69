/** The tokenOperations area: token operations (admin). Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { TokenOperationsHttpLive } from "./Http.js"
import { TokenOperationsRepo } from "./Repo.js"
import { seedTokenOperations } from "../../../demo/growth/tokenOperations/seed.js"
import { TokenOperationsManifest } from "../../../demo/growth/tokenOperations/manifest.js"

/** The tokenOperations area's handlers and demo seed (see `src/Area.ts`). */
export const TokenOperationsArea = {
  name: "growth/tokenOperations",
  http: TokenOperationsHttpLive.pipe(Layer.provide([TokenOperationsRepo.Default])),
  seed: seedTokenOperations,
  manifest: TokenOperationsManifest
} satisfies Area
