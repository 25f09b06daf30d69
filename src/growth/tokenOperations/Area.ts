/**
 * The tokenOperations area: token operations (admin), carried out through transaction intents
 * whose outcomes reconcile them (`intentOutcomes`). Listed in `src/areas.ts`.
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { TokenOperationsHttpLive } from "./Http.js"
import { migrations } from "./Migrations.js"
import { tokenOperationOutcome } from "./Outcomes.js"
import { TokenOperationPurpose, TokenOperations } from "./TokenOperations.js"

/** The tokenOperations area's handlers, migrations and intent outcomes (see `src/Area.ts`). */
export const TokenOperationsArea = {
  name: "growth/tokenOperations",
  http: TokenOperationsHttpLive.pipe(Layer.provide([TokenOperations.Default])),
  migrations,
  intentOutcomes: { [TokenOperationPurpose]: tokenOperationOutcome }
} satisfies Area
