/**
 * The second factor (ours; spec §5.2 "recent authentication or MFA"): the bodies and
 * answers of TOTP enrollment (RFC 6238: SHA-1, 6 digits, 30 s steps), recovery codes and
 * second-factor verification. Secrets and recovery codes appear once, in the first answer.
 */
import { Schema } from "effect"
import { DateTimeZ, StrictStruct, Uuid, WireString } from "../../../schema/common.js"

/** How a one-time secret was delivered: in this answer, or in an earlier one (a replay of the same Idempotency-Key). */
export const SecretDelivery = Schema.Literal("SHOWN_ONCE", "ALREADY_SHOWN").annotations({ identifier: "SecretDelivery" })

/**
 * Body of Accounts_ConfirmTotp, Accounts_DisableTotp, Accounts_RegenerateRecoveryCodes and
 * Accounts_VerifyMfa: a current 6-digit TOTP code or (not for confirmation) an unused recovery
 * code (`xxxxx-xxxxx`; case, spaces and hyphens ignored).
 */
export const MfaCodeRequest = StrictStruct({
  code: WireString(6, 32).annotations({
    description: "A 6-digit code of the authenticator app, or an unused recovery code (xxxxx-xxxxx)"
  })
}).annotations({ identifier: "MfaCodeRequest", examples: [{ code: "123456" }] })

/**
 * `data` of Accounts_EnrollTotp: a new PENDING authenticator. `secret` (base32), `otpauthUri`
 * and `qrSvg` (the URI as a QR code, SVG) are shown once; a replay of the same Idempotency-Key
 * answers them `null` with `delivery: ALREADY_SHOWN`.
 */
export const TotpEnrollment = Schema.Struct({
  state: Schema.Literal("PENDING"),
  secret: Schema.NullOr(Schema.String).annotations({ description: "Base32 TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s); shown once" }),
  otpauthUri: Schema.NullOr(Schema.String).annotations({ description: "otpauth://totp/… URI for authenticator apps; shown once" }),
  qrSvg: Schema.NullOr(Schema.String).annotations({ description: "The otpauth URI as an SVG QR code; shown once" }),
  delivery: SecretDelivery
}).annotations({ identifier: "TotpEnrollment" })
export type TotpEnrollment = typeof TotpEnrollment.Type

/** What a replay of Accounts_EnrollTotp answers (and what is stored for it): never the secret. */
export const enrollmentShown = (e: TotpEnrollment): TotpEnrollment => ({ ...e, secret: null, otpauthUri: null, qrSvg: null, delivery: "ALREADY_SHOWN" })

/**
 * `data` of Accounts_ConfirmTotp and Accounts_RegenerateRecoveryCodes: TOTP is ENABLED and
 * these ten single-use recovery codes replace any earlier ones. The codes are shown once
 * (stored only as SHA-256); a replay answers `recoveryCodes: null`, `delivery: ALREADY_SHOWN`.
 */
export const RecoveryCodes = Schema.Struct({
  state: Schema.Literal("ENABLED"),
  recoveryCodes: Schema.NullOr(Schema.Array(Schema.String)).annotations({
    description: "Ten single-use recovery codes (xxxxx-xxxxx); shown once"
  }),
  delivery: SecretDelivery
}).annotations({ identifier: "RecoveryCodes" })
export type RecoveryCodes = typeof RecoveryCodes.Type

/** What a replay of Accounts_ConfirmTotp or Accounts_RegenerateRecoveryCodes answers: never the codes. */
export const codesShown = (c: RecoveryCodes): RecoveryCodes => ({ ...c, recoveryCodes: null, delivery: "ALREADY_SHOWN" })

/** `data` of Accounts_DisableTotp: the account has no second factor any more. */
export const MfaDisabled = Schema.Struct({
  state: Schema.Literal("DISABLED")
}).annotations({ identifier: "MfaDisabled" })

/**
 * `data` of Accounts_VerifyMfa: the session is fully signed in and its `authenticatedAt` is
 * now (a fresh authentication for sensitive actions, spec §5.2). `method` says which
 * factor was used; `recoveryCodesLeft` how many unused recovery codes remain.
 */
export const MfaVerified = Schema.Struct({
  sessionId: Uuid,
  authenticatedAt: DateTimeZ,
  method: Schema.Literal("TOTP", "RECOVERY_CODE"),
  recoveryCodesLeft: Schema.Int.pipe(Schema.nonNegative())
}).annotations({ identifier: "MfaVerified" })
