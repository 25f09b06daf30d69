/**
 * The registry's upstream sources: the registries, chains and domains the directory ingests agents from
 * (operations `Partners_*`, admin), and their syncs on the durable engine. A sub-feature of the registry
 * area (its tables are the registry's migration 0050): what it ingests is what the subregistry serves.
 * Listed in `src/areas.ts`.
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { UpstreamSourcesHttpLive } from "./Http.js"
import { Sources } from "./Sources.js"
import { UpstreamSyncWorkflows } from "./Sync.js"

/** The upstream sources' handlers and workflows (see `src/Area.ts`). */
export const UpstreamSourcesArea = {
  name: "registry/upstream",
  http: UpstreamSourcesHttpLive.pipe(Layer.provide(Sources.Default)),
  workflows: UpstreamSyncWorkflows
} satisfies Area
