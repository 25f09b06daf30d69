/**
 * The payment processors whose signed webhooks the service accepts (spec §5.1.4, §5.1.6;
 * docs/processor-webhooks.md), read from the environment (Effect `Config`) and validated at
 * start-up: `PAYMENT_PROCESSOR_WEBHOOKS`, a comma-separated list of `name=scheme:secret`
 * entries, e.g. `stripe=stripe:whsec_…,acme=standard:whsec_…`.
 *
 * - `name` (`[a-z0-9][a-z0-9-]{0,39}`) is the path segment of `POST /api/v1/webhooks/{provider}`;
 * - `scheme` is `stripe` (Stripe's `Stripe-Signature`, verified by the `stripe` package) or
 *   `standard` (Standard Webhooks' `webhook-id`/`webhook-timestamp`/`webhook-signature`, verified
 *   by the `standardwebhooks` package);
 * - `secret` is the provider's signing secret for this endpoint (Stripe's `whsec_…`; for
 *   `standard`, `whsec_` + base64 of at least 24 bytes). It is used for nothing else and is
 *   never logged (`Redacted`).
 *
 * The root provides {@link ProcessorWebhookSettingsLive} with the other areas' settings (`src/config.ts`).
 */
import { Config, ConfigError, Context, Either, Layer, Redacted } from "effect"
import { Webhook } from "standardwebhooks"

/** The signature schemes a provider may use. */
export type ProcessorScheme = "stripe" | "standard"

/** One configured provider. */
export interface ProcessorProvider {
  readonly scheme: ProcessorScheme
  /** The signing secret (used only to verify this provider's webhooks). */
  readonly secret: Redacted.Redacted<string>
}

/** The payment processor webhook settings. */
export interface ProcessorWebhookSettingsShape {
  readonly processorWebhooks: {
    /** The configured providers by name (`PAYMENT_PROCESSOR_WEBHOOKS`; none by default: every provider is unknown). */
    readonly providers: ReadonlyMap<string, ProcessorProvider>
  }
}

/** The payment processor webhook settings. */
export class ProcessorWebhookSettings extends Context.Tag("agent-directory/ProcessorWebhookSettings")<
  ProcessorWebhookSettings,
  ProcessorWebhookSettingsShape
>() {}

/** A provider's name: the `{provider}` path segment. */
export const ProviderNamePattern = /^[a-z0-9][a-z0-9-]{0,39}$/

const Variable = "PAYMENT_PROCESSOR_WEBHOOKS"

/** A Standard Webhooks secret the package accepts: `whsec_` + base64 of at least 24 bytes. */
const standardSecretValid = (secret: string) => {
  const body = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : ""
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || Buffer.from(body, "base64").length < 24) return false
  try {
    new Webhook(secret)
    return true
  } catch {
    return false
  }
}

/**
 * Parses the value of `PAYMENT_PROCESSOR_WEBHOOKS`: the providers by name, or a message naming
 * the entry (by position and name, never its secret) and the rule it breaks.
 */
export const parseProcessorWebhooks = (value: string): Either.Either<ReadonlyMap<string, ProcessorProvider>, string> => {
  const providers = new Map<string, ProcessorProvider>()
  const entries = value.trim() === "" ? [] : value.split(",")
  for (const [index, raw] of entries.entries()) {
    const entry = raw.trim()
    const at = `${Variable} entry ${index + 1}`
    const eq = entry.indexOf("=")
    const colon = entry.indexOf(":", eq + 1)
    if (eq <= 0 || colon === -1) return Either.left(`${at} must be name=scheme:secret`)
    const name = entry.slice(0, eq)
    const scheme = entry.slice(eq + 1, colon)
    const secret = entry.slice(colon + 1)
    if (!ProviderNamePattern.test(name)) return Either.left(`${at}: the name must match [a-z0-9][a-z0-9-]{0,39}`)
    if (providers.has(name)) return Either.left(`${at}: the name ${name} is listed twice`)
    if (scheme !== "stripe" && scheme !== "standard") return Either.left(`${at} (${name}): the scheme must be stripe or standard`)
    if (scheme === "stripe" && !/^whsec_[A-Za-z0-9+/=_-]{16,}$/.test(secret)) {
      return Either.left(`${at} (${name}): a stripe secret is whsec_ followed by at least 16 characters`)
    }
    if (scheme === "standard" && !standardSecretValid(secret)) {
      return Either.left(`${at} (${name}): a standard secret is whsec_ followed by the base64 of at least 24 bytes`)
    }
    providers.set(name, { scheme, secret: Redacted.make(secret) })
  }
  return Either.right(providers)
}

/** Reads and validates the payment processor webhook settings (`ConfigProvider`); fails with `ConfigError`. */
export const processorWebhookSettings: Config.Config<ProcessorWebhookSettingsShape> = Config.all({
  processorWebhooks: Config.all({
    providers: Config.redacted(Variable).pipe(
      Config.withDefault(Redacted.make("")),
      Config.mapOrFail((value) =>
        Either.mapLeft(parseProcessorWebhooks(Redacted.value(value)), (message) => ConfigError.InvalidData([], message))
      )
    )
  })
})

/** The payment processor webhook settings from the environment. */
export const ProcessorWebhookSettingsLive = Layer.effect(ProcessorWebhookSettings, processorWebhookSettings)
