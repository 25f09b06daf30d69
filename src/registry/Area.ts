/** The registry area: the directory as an MCP subregistry (MCP Registry read API v0.1). Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { RegistryHttpLive } from "./Http.js"
import { migrations } from "./Migrations.js"
import { Registry } from "./Registry.js"

/** The registry area's handlers and migrations (see `src/Area.ts`); its upstream sources are `registry/upstream`. */
export const RegistryArea = {
  name: "registry",
  http: RegistryHttpLive.pipe(Layer.provide(Registry.Default)),
  migrations
} satisfies Area
