/**
 * The accounts area's settings, read from the environment (Effect `Config`) and validated
 * at start-up (docs/configuration.md). The root provides {@link AccountSettingsLive} with the
 * other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer } from "effect"
import { boundedInteger } from "../../layers/AppConfig.js"

/** Who may sign up over the API (`SIGN_UP`). */
export type SignUpPolicy = "open" | "invitation" | "closed"

/** The accounts area's settings. */
export interface AccountSettingsShape {
  readonly accounts: {
    /**
     * `SIGN_UP`: `open` (anyone; the default), `invitation` (only an address a PENDING
     * invitation was sent to) or `closed` (no one; `npm run accounts:create` bootstraps).
     */
    readonly signUp: SignUpPolicy
    /** How long an email verification link is valid (`EMAIL_VERIFICATION_TTL_HOURS`, 1..720, default 48). */
    readonly emailVerificationTtlHours: number
    /** How long a password reset link is valid (`PASSWORD_RESET_TTL_MINUTES`, 5..1440, default 60). */
    readonly passwordResetTtlMinutes: number
  }
}

/** The accounts area's settings. */
export class AccountSettings extends Context.Tag("agent-directory/AccountSettings")<AccountSettings, AccountSettingsShape>() {}

/** Reads and validates the accounts area's settings (`ConfigProvider`); fails with `ConfigError`. */
export const accountSettings: Config.Config<AccountSettingsShape> = Config.all({
  accounts: Config.all({
    signUp: Config.literal("open", "invitation", "closed")("SIGN_UP").pipe(Config.withDefault("open" as const)),
    emailVerificationTtlHours: boundedInteger("EMAIL_VERIFICATION_TTL_HOURS", 1, 720, 48),
    passwordResetTtlMinutes: boundedInteger("PASSWORD_RESET_TTL_MINUTES", 5, 1440, 60)
  })
})

/** The accounts area's settings from the environment. */
export const AccountSettingsLive = Layer.effect(AccountSettings, accountSettings)
