/** The mesh area: mesh publishers. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { MeshHttpLive } from "./Http.js"
import { Mesh } from "./Mesh.js"

/** The mesh area's handlers (see `src/Area.ts`). */
export const MeshArea = {
  name: "social/mesh",
  http: MeshHttpLive.pipe(Layer.provide([Mesh.Default]))
} satisfies Area
