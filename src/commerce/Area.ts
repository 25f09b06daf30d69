/** The commerce area: orders. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { CommerceHttpLive } from "./Http.js"
import { migrations } from "./Migrations.js"
import { CommerceRepo } from "./Repo.js"

/** The commerce area's handlers and migrations (see `src/Area.ts`). */
export const CommerceArea = {
  name: "commerce",
  http: CommerceHttpLive.pipe(Layer.provide([CommerceRepo.Default])),
  migrations
} satisfies Area
