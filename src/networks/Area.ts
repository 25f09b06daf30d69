/**
 * The networks area: `Networks_ListNetworks` (the configured chains) and the block watchers
 * (./watcher/). Listed in `src/areas.ts`.
 */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { NetworksHttpLive } from "./Http.js"
import { migrations } from "./Migrations.js"
import { Networks } from "./Networks.js"
import { ChainWatchers } from "./watcher/Runner.js"

/** The networks area's handlers, watchers and migration (see `src/Area.ts`). */
export const NetworksArea = {
  name: "networks",
  http: NetworksHttpLive.pipe(Layer.provide([Networks.Default])),
  workflows: ChainWatchers,
  migrations
} satisfies Area
