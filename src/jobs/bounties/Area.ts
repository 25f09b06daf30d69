/**
 * The bounties area: bounties from posting to payout, their clock (`Lifecycle.ts`), bounty
 * disputes (admin) and their escrow on chain (contracts/BountyEscrow.sol).
 * Listed in `src/areas.ts`.
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { BountiesHttpLive, BountyDisputesHttpLive } from "./Http.js"
import { Bounties } from "./Bounties.js"
import { BountyLifecycleLive } from "./Lifecycle.js"
import { BountyFundingPurpose, BountyPayoutPurpose, fundingOutcome, payoutOutcome } from "./Payouts.js"
import { Disputes } from "./Disputes.js"
import { BountyEscrowPurpose, bountyEscrowOutcome } from "./EscrowOutcomes.js"
import { migrations } from "./Migrations.js"

/** The bounties area's handlers, migrations and escrow intents' outcome handler (see `src/Area.ts`). */
export const BountiesArea = {
  name: "jobs/bounties",
  http: Layer.mergeAll(
    BountyDisputesHttpLive.pipe(Layer.provide([Disputes.Default])),
    BountiesHttpLive.pipe(Layer.provide([Bounties.Default]))
  ),
  workflows: BountyLifecycleLive,
  migrations,
  intentOutcomes: {
    [BountyEscrowPurpose]: bountyEscrowOutcome,
    [BountyFundingPurpose]: fundingOutcome,
    [BountyPayoutPurpose]: payoutOutcome
  }
} satisfies Area
