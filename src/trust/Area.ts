/** The trust area: feedback and tool-safety findings. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { migrations } from "./Migrations.js"
import { TrustHttpLive } from "./Http.js"
import { AgentFindings } from "./findings/Findings.js"
import { Trust } from "./Trust.js"

/** The trust area's handlers (see `src/Area.ts`). */
export const TrustArea = {
  name: "trust",
  http: TrustHttpLive.pipe(Layer.provide([Trust.Default, AgentFindings.Default])),
  migrations
} satisfies Area
