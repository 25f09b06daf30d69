/**
 * The token operations area's settings, read from the environment (Effect `Config`) and validated
 * at start-up (docs/configuration.md, docs/token-operations.md). The root provides
 * {@link TokenOperationSettingsLive} with the other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer } from "effect"

/** The token operations area's settings. */
export interface TokenOperationSettingsShape {
  readonly tokenOperations: {
    /**
     * Operations of more units than this (chain units of the asset) are created APPROVAL_REQUIRED
     * and need an administrator other than their creator to approve them; others are PLANNED and
     * any administrator, the creator included, may approve them
     * (`TOKEN_OPERATION_APPROVAL_THRESHOLD_UNITS`, a decimal integer, default 0: every operation of
     * one unit or more needs a second administrator).
     */
    readonly approvalThresholdUnits: bigint
  }
}

/** The token operations area's settings. */
export class TokenOperationSettings extends Context.Tag("agent-directory/TokenOperationSettings")<
  TokenOperationSettings,
  TokenOperationSettingsShape
>() {}

const UnitsPattern = /^(?:0|[1-9][0-9]{0,77})$/

/** Reads and validates the token operations area's settings (`ConfigProvider`); fails with `ConfigError`. */
export const tokenOperationSettings: Config.Config<TokenOperationSettingsShape> = Config.all({
  tokenOperations: Config.all({
    approvalThresholdUnits: Config.string("TOKEN_OPERATION_APPROVAL_THRESHOLD_UNITS").pipe(
      Config.validate({
        message: "TOKEN_OPERATION_APPROVAL_THRESHOLD_UNITS must be a non-negative decimal integer of at most 78 digits",
        validation: (s) => UnitsPattern.test(s)
      }),
      Config.map((s) => BigInt(s)),
      Config.withDefault(0n)
    )
  })
})

/** The token operations area's settings from the environment. */
export const TokenOperationSettingsLive = Layer.effect(TokenOperationSettings, tokenOperationSettings)
