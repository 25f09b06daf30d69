/**
 * The endpoint-health area's settings, read from the environment (Effect `Config`) and
 * validated at start-up (docs/configuration.md). The root provides {@link EndpointProbeSettingsLive}
 * with the other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer } from "effect"
import { boundedInteger } from "../../layers/AppConfig.js"

/** The endpoint-health area's settings. */
export interface EndpointProbeSettingsShape {
  /**
   * Probing agents' stored endpoints (src/endpointHealth/):
   * `ENDPOINT_PROBE_INTERVAL_MINUTES` (a round every N minutes UTC, N a divisor of 60, or 0 =
   * no scheduled rounds; default 5) and `ENDPOINT_PROBE_TIMEOUT_MS` (bound on one probe,
   * 100..60000 ms, default 5000).
   */
  readonly endpointProbes: { readonly intervalMinutes: number; readonly timeoutMs: number }
}

/** The endpoint-health area's settings. */
export class EndpointProbeSettings
  extends Context.Tag("agent-directory/EndpointProbeSettings")<EndpointProbeSettings, EndpointProbeSettingsShape>()
{}

/** Reads and validates the endpoint-health area's settings (`ConfigProvider`); fails with `ConfigError`. */
export const endpointProbeSettings: Config.Config<EndpointProbeSettingsShape> = Config.all({
  endpointProbes: Config.all({
    intervalMinutes: Config.integer("ENDPOINT_PROBE_INTERVAL_MINUTES").pipe(
      Config.validate({
        message: "ENDPOINT_PROBE_INTERVAL_MINUTES must be 0 (off) or a divisor of 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60)",
        validation: (n) => n === 0 || (n >= 1 && n <= 60 && 60 % n === 0)
      }),
      Config.withDefault(5)
    ),
    timeoutMs: boundedInteger("ENDPOINT_PROBE_TIMEOUT_MS", 100, 60_000, 5000)
  })
})

/** The endpoint-health area's settings from the environment. */
export const EndpointProbeSettingsLive = Layer.effect(EndpointProbeSettings, endpointProbeSettings)
