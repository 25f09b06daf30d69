/**
 * The bounties area: bounty disputes (admin) and their escrow on chain (contracts/BountyEscrow.sol).
 * Listed in `src/areas.ts`.
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { BountyDisputesHttpLive } from "./Http.js"
import { Disputes } from "./Disputes.js"
import { BountyEscrowPurpose, bountyEscrowOutcome } from "./EscrowOutcomes.js"
import { migrations } from "./Migrations.js"

/** The bounties area's handlers, migrations and escrow intents' outcome handler (see `src/Area.ts`). */
export const BountiesArea = {
  name: "jobs/bounties",
  http: BountyDisputesHttpLive.pipe(Layer.provide([Disputes.Default])),
  migrations,
  intentOutcomes: { [BountyEscrowPurpose]: bountyEscrowOutcome }
} satisfies Area
