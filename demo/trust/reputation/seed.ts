/**
 * Demo data of the reputation area: none of its own; its seed step projects every demo agent
 * (src/trust/reputation/Projection.ts) after the areas before it wrote their evidence (feedback,
 * identities, runs, favorites), so the demo's `/trust`, `/rank` and `/performance` answer
 * real values and `agents.rank` / `verificationState` are the projection's.
 */
import { Effect } from "effect"
import { now } from "../../../layers/Clock.js"
import { projectAgents } from "../../../src/trust/reputation/Projection.js"

/** The seed step: one full projection at the seed's time. Fails with `SqlError`. */
export const seedReputationDemo = Effect.flatMap(now, (at) => projectAgents("all", at)).pipe(Effect.asVoid)
