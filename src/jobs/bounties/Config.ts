/**
 * The bounties' settings, read from the environment (Effect `Config`) and validated at start-up
 * (docs/configuration.md, docs/bounties.md). The root provides {@link BountySettingsLive} with the
 * other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer } from "effect"

/** The bounties' settings. */
export interface BountySettingsShape {
  readonly bounties: {
    /**
     * Hours a claimant has to submit a delivery after claiming (`delivery_due_at` = claim + this,
     * never past the bounty's deadline by more than this); past it the claim is released and the
     * bounty is OPEN again (`BOUNTY_DELIVERY_HOURS`, an integer 1-2160, default 72).
     */
    readonly deliveryHours: number
    /**
     * Hours after a delivery's submission or rejection during which either side may open a
     * dispute (`BOUNTY_DISPUTE_WINDOW_HOURS`, an integer 1-2160, default 168).
     */
    readonly disputeWindowHours: number
  }
}

/** The bounties' settings. */
export class BountySettings extends Context.Tag("agent-directory/BountySettings")<BountySettings, BountySettingsShape>() {}

const hours = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be an integer 1-2160 (hours, at most 90 days)`, validation: (n) => n >= 1 && n <= 2160 }),
    Config.withDefault(fallback)
  )

/** Reads and validates the bounties' settings (`ConfigProvider`); fails with `ConfigError`. */
export const bountySettings: Config.Config<BountySettingsShape> = Config.all({
  bounties: Config.all({
    deliveryHours: hours("BOUNTY_DELIVERY_HOURS", 72),
    disputeWindowHours: hours("BOUNTY_DISPUTE_WINDOW_HOURS", 168)
  })
})

/** The bounties' settings from the environment. */
export const BountySettingsLive = Layer.effect(BountySettings, bountySettings)
