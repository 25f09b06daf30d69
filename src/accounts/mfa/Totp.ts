/**
 * TOTP (RFC 6238 with the authenticator apps' parameters: SHA-1, 6 digits, 30-second
 * steps, base32 secrets of 20 bytes) through `otplib`, its `otpauth://` URI and QR code
 * (`qrcode`, SVG), and recovery codes. Pure functions: time is given, never read.
 */
import { generateSecret, generateSync, generateURI, verifySync } from "otplib"
import * as QRCode from "qrcode"
import { randomBytes } from "node:crypto"
import { Effect } from "effect"

/** The issuer shown by authenticator apps. */
export const TotpIssuer = "Agent Directory"

/** Seconds per TOTP step. */
export const TotpPeriodSeconds = 30

/** A new random base32 TOTP secret (20 bytes, RFC 4226's recommended length). */
export const newTotpSecret = (): string => generateSecret({ length: 20 })

/** The `otpauth://totp/…` URI of a secret for `label` (the account's email). */
export const totpUri = (secret: string, label: string): string =>
  generateURI({ issuer: TotpIssuer, label, secret, algorithm: "sha1", digits: 6, period: TotpPeriodSeconds })

/** The QR code of `uri`, as an SVG document. */
export const qrSvg = (uri: string): Effect.Effect<string> =>
  Effect.promise(() => QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 }))

/** The 6-digit code of `secret` at `at` (tests, demo tooling). */
export const totpCode = (secret: string, at: Date): string =>
  generateSync({ secret, epoch: Math.floor(at.getTime() / 1000), period: TotpPeriodSeconds })

/**
 * The time step `code` matches at `at`, within ±1 step (clock drift), and later than
 * `afterStep` (a step once used is never accepted again); `undefined` when none does.
 * Compared in constant time by otplib.
 */
export const verifyTotp = (secret: string, code: string, at: Date, afterStep: number | null): number | undefined => {
  if (!/^\d{6}$/.test(code)) return undefined
  const result = verifySync({
    secret,
    token: code,
    epoch: Math.floor(at.getTime() / 1000),
    period: TotpPeriodSeconds,
    epochTolerance: TotpPeriodSeconds,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep })
  })
  // the TOTP strategy's result carries the matched step
  return result.valid && "timeStep" in result && typeof result.timeStep === "number" ? result.timeStep : undefined
}

/** True when `code` has the shape of a TOTP code (six digits) rather than a recovery code. */
export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.trim())

/** How many recovery codes an account holds after confirmation or regeneration. */
export const RecoveryCodeCount = 10

// 32 unambiguous characters (no 0/o, 1/l): 5 bits each, 50 bits a code
const RecoveryAlphabet = "abcdefghijkmnpqrstuvwxyz23456789"

/** A new recovery code, `xxxxx-xxxxx`. */
export const newRecoveryCode = (): string => {
  const chars = [...randomBytes(10)].map((b) => RecoveryAlphabet[b & 31]!)
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`
}

/** The form a recovery code is hashed in: lowercase, without spaces and hyphens. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, "")
