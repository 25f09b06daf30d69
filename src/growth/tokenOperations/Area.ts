/** The tokenOperations area: token operations (admin). Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { TokenOperationsHttpLive } from "./Http.js"
import { TokenOperationsRepo } from "./Repo.js"

/** The tokenOperations area's handlers (see `src/Area.ts`). */
export const TokenOperationsArea = {
  name: "growth/tokenOperations",
  http: TokenOperationsHttpLive.pipe(Layer.provide([TokenOperationsRepo.Default]))
} satisfies Area
