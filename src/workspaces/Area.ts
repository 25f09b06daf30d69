/** The workspaces area: workspaces. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { WorkspacesHttpLive } from "./Http.js"
import { Workspaces } from "./Workspaces.js"
import { seedWorkspaces } from "../../demo/workspaces/seed.js"
import { WorkspacesManifest } from "../../demo/workspaces/manifest.js"

/** The workspaces area's handlers and demo seed (see `src/Area.ts`). */
export const WorkspacesArea = {
  name: "workspaces",
  http: WorkspacesHttpLive.pipe(Layer.provide([Workspaces.Default])),
  seed: seedWorkspaces,
  manifest: WorkspacesManifest
} satisfies Area
