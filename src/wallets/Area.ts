/** The wallets area: wallets, their policies and wallet-agent relations. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { AgentRelations } from "./AgentRelations.js"
import { WalletAgentRelationsHttpLive } from "./AgentRelationsHttp.js"
import { WalletsHttpLive } from "./Http.js"
import { Wallets } from "./Wallets.js"
import { seedWalletsDemo } from "../../demo/wallets/seed.js"
import { WalletsManifest } from "../../demo/wallets/manifest.js"

/** The wallets area's handlers (policies and profiles; wallet-agent relations) and demo seed (see `src/Area.ts`). */
export const WalletsArea = {
  name: "wallets",
  http: Layer.mergeAll(
    WalletsHttpLive.pipe(Layer.provide([Wallets.Default])),
    WalletAgentRelationsHttpLive.pipe(Layer.provide(AgentRelations.Default))
  ),
  seed: seedWalletsDemo,
  manifest: WalletsManifest
} satisfies Area
