/** The mesh area: mesh publishers. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { MeshHttpLive } from "./Http.js"
import { Mesh } from "./Mesh.js"
import { seedMesh } from "../../../demo/social/mesh/seed.js"
import { MeshManifest } from "../../../demo/social/mesh/manifest.js"

/** The mesh area's handlers and demo seed (see `src/Area.ts`). */
export const MeshArea = {
  name: "social/mesh",
  http: MeshHttpLive.pipe(Layer.provide([Mesh.Default])),
  seed: seedMesh,
  manifest: MeshManifest
} satisfies Area
