/**
 * The payment rails' settings, read from the environment (Effect `Config`) and validated at
 * start-up (docs/configuration.md, docs/payments.md). The root provides {@link PaymentSettingsLive}
 * with the other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer, Option } from "effect"

/** The payment rails' settings. */
export interface PaymentSettingsShape {
  readonly payments: {
    /**
     * The x402 facilitator that verifies and settles x402 payments (`X402_FACILITATOR_URL`, an
     * `http(s)` URL; its `/verify`, `/settle` and `/supported` routes). Reached through the outbound
     * client (layers/Outbound.ts): a local one must be named in `OUTBOUND_ALLOWED_HOSTS`. None:
     * an x402 resource still answers 402 with its requirements, and a payment is refused with
     * 422 `configuration-missing`.
     */
    readonly x402FacilitatorUrl: Option.Option<string>
    /**
     * How long a payer has to complete an x402 payment, in seconds: the requirements'
     * `maxTimeoutSeconds` and the payment's `expiresAt` (`X402_MAX_TIMEOUT_SECONDS`, 10 to 3600,
     * default 300).
     */
    readonly x402MaxTimeoutSeconds: number
    /**
     * How long an ONCHAIN payment's transaction intent waits for the buyer's signature, in seconds
     * (`ONCHAIN_PAYMENT_TTL_SECONDS`, 60 to 86 400, default 3600): the payment's `expiresAt`.
     */
    readonly onchainPaymentTtlSeconds: number
  }
}

/** The payment rails' settings. */
export class PaymentSettings extends Context.Tag("agent-directory/PaymentSettings")<PaymentSettings, PaymentSettingsShape>() {}

const httpUrl = (s: string) => {
  try {
    const url = new URL(s)
    return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === ""
  } catch {
    return false
  }
}

const seconds = (name: string, min: number, max: number, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be an integer from ${min} to ${max} (seconds)`, validation: (n) => n >= min && n <= max }),
    Config.withDefault(fallback)
  )

/** Reads and validates the payment rails' settings (`ConfigProvider`); fails with `ConfigError`. */
export const paymentSettings: Config.Config<PaymentSettingsShape> = Config.all({
  payments: Config.all({
    x402FacilitatorUrl: Config.option(
      Config.string("X402_FACILITATOR_URL").pipe(
        Config.validate({ message: "X402_FACILITATOR_URL must be an http(s) URL without credentials", validation: httpUrl }),
        Config.map((s) => s.replace(/\/+$/, ""))
      )
    ),
    x402MaxTimeoutSeconds: seconds("X402_MAX_TIMEOUT_SECONDS", 10, 3600, 300),
    onchainPaymentTtlSeconds: seconds("ONCHAIN_PAYMENT_TTL_SECONDS", 60, 86_400, 3600)
  })
})

/** The payment rails' settings from the environment. */
export const PaymentSettingsLive = Layer.effect(PaymentSettings, paymentSettings)
