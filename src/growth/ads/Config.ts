/**
 * The ads area's settings, read from the environment (Effect `Config`) and validated at
 * start-up (docs/configuration.md, docs/ads.md). The root provides {@link AdsSettingsLive} with
 * the other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer, type Option } from "effect"

/** The ads area's settings. */
export interface AdsSettingsShape {
  readonly ads: {
    /**
     * The workspace that sells the ad packages (`ADS_PLATFORM_WORKSPACE_ID`, a uuid, lower-cased):
     * the lifecycle tick makes the packages' offers there (src/growth/ads/PackageOffers.ts). None
     * (unset): packages get no offer, and cannot be bought, until it is set.
     */
    readonly platformWorkspaceId: Option.Option<string>
  }
}

/** The ads area's settings. */
export class AdsSettings extends Context.Tag("agent-directory/AdsSettings")<AdsSettings, AdsSettingsShape>() {}

const UuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Reads and validates the ads area's settings (`ConfigProvider`); fails with `ConfigError`. */
export const adsSettings: Config.Config<AdsSettingsShape> = Config.all({
  ads: Config.all({
    platformWorkspaceId: Config.option(
      Config.string("ADS_PLATFORM_WORKSPACE_ID").pipe(
        Config.validate({ message: "ADS_PLATFORM_WORKSPACE_ID must be a uuid", validation: (s) => UuidPattern.test(s) }),
        Config.map((s) => s.toLowerCase())
      )
    )
  })
})

/** The ads area's settings from the environment. */
export const AdsSettingsLive = Layer.effect(AdsSettings, adsSettings)
