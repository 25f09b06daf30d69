/** The wallets area: wallets and their policies. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { WalletsHttpLive } from "./Http.js"
import { Wallets } from "./Wallets.js"
import { seedWalletsDemo } from "./demo.js"
import { WalletsManifest } from "./manifest.js"

/** The wallets area's handlers and demo seed (see `src/Area.ts`). */
export const WalletsArea = {
  name: "wallets",
  http: WalletsHttpLive.pipe(Layer.provide([Wallets.Default])),
  seed: seedWalletsDemo,
  manifest: WalletsManifest
} satisfies Area
