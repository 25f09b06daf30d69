/**
 * The second factor's operations (ours; spec §5.2 "recent authentication or MFA"), added
 * to the Accounts group by src/accounts/Api.ts: TOTP enrollment, confirmation and removal,
 * recovery codes, and the verification that completes a sign-in or steps a session up.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Data } from "../../../schema/envelope.js"
import { InvalidRequest } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { ReplayAs } from "../../api/replay.js"
import { MfaAlreadyEnabled, MfaEnrollmentNotPending, MfaNotEnabled, MfaThrottled } from "./Errors.js"
import { codesShown, enrollmentShown, MfaCodeRequest, MfaDisabled, MfaVerified, RecoveryCodes, TotpEnrollment } from "./Schemas.js"

const isEnrollment = Schema.is(Data(TotpEnrollment))
const isCodes = Schema.is(Data(RecoveryCodes))

/** Accounts_EnrollTotp: POST /api/v1/me/mfa/totp. */
export const enrollTotp = HttpApiEndpoint.post("enrollTotp", "/api/v1/me/mfa/totp")
  .setHeaders(IdempotencyKeyRequired)
  .addSuccess(Data(TotpEnrollment))
  // a replay says the secret was already shown; the stored response never holds it
  .annotate(ReplayAs, (success) => isEnrollment(success) ? { ...success, data: enrollmentShown(success.data) } : success)
  .pipe(
    operation({
      id: "Accounts_EnrollTotp",
      auth: "required-user",
      cache: "none",
      sensitive: true,
      statuses: [400, 401, 403, 409, 500, 503],
      summary: "Start TOTP enrollment: a new authenticator secret, shown once",
      description: "Creates a PENDING TOTP authenticator (RFC 6238: SHA-1, 6 digits, 30 s) for the caller and answers " +
        "its base32 `secret`, the `otpauthUri` (issuer `Agent Directory`, label the account's email) and `qrSvg` (the " +
        "URI as an SVG QR code) exactly once; a replay of the same Idempotency-Key answers them `null` with `delivery: " +
        "ALREADY_SHOWN`. Enrolling again before confirming replaces the pending secret. Confirm with " +
        "Accounts_ConfirmTotp. Sensitive: needs a recent sign-in. 409 `mfa-already-enabled` when TOTP is already on.",
      errors: [MfaAlreadyEnabled]
    })
  )

/** Accounts_ConfirmTotp: POST /api/v1/me/mfa/totp/confirm. */
export const confirmTotp = HttpApiEndpoint.post("confirmTotp", "/api/v1/me/mfa/totp/confirm")
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(MfaCodeRequest)
  .addSuccess(Data(RecoveryCodes))
  .annotate(ReplayAs, (success) => isCodes(success) ? { ...success, data: codesShown(success.data) } : success)
  .pipe(
    operation({
      id: "Accounts_ConfirmTotp",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 409, 429, 500, 503],
      summary: "Confirm TOTP with a current code; answers ten recovery codes once",
      description: "A current code of the pending authenticator (±30 s) enables TOTP: from now on sign-in asks for the " +
        "second factor (Accounts_VerifyMfa). Answers ten single-use recovery codes exactly once (stored only hashed; " +
        "a replay answers `recoveryCodes: null`, `delivery: ALREADY_SHOWN`). A wrong code is 400 `invalid-request` " +
        "naming `/code`; no pending enrollment is 409 `mfa-enrollment-not-pending`. Attempts are throttled (429).",
      errors: [InvalidRequest, MfaEnrollmentNotPending, MfaThrottled]
    })
  )

/** Accounts_DisableTotp: POST /api/v1/me/mfa/totp/disable. */
export const disableTotp = HttpApiEndpoint.post("disableTotp", "/api/v1/me/mfa/totp/disable")
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(MfaCodeRequest)
  .addSuccess(Data(MfaDisabled))
  .pipe(
    operation({
      id: "Accounts_DisableTotp",
      auth: "required-user",
      cache: "none",
      sensitive: true,
      statuses: [400, 401, 403, 409, 429, 500, 503],
      summary: "Turn TOTP off with a current code or a recovery code",
      description: "Removes the caller's authenticator and recovery codes; sign-in no longer asks a second factor " +
        "(and an administrator can no longer call admin operations: 403 `mfa-required`). Needs a current TOTP code or an " +
        "unused recovery code (else 400 `invalid-request` naming `/code`) and a recent sign-in (sensitive). 409 " +
        "`mfa-not-enabled` without TOTP. Attempts are throttled (429).",
      errors: [InvalidRequest, MfaNotEnabled, MfaThrottled]
    })
  )

/** Accounts_RegenerateRecoveryCodes: POST /api/v1/me/mfa/recovery-codes. */
export const regenerateRecoveryCodes = HttpApiEndpoint.post("regenerateRecoveryCodes", "/api/v1/me/mfa/recovery-codes")
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(MfaCodeRequest)
  .addSuccess(Data(RecoveryCodes))
  .annotate(ReplayAs, (success) => isCodes(success) ? { ...success, data: codesShown(success.data) } : success)
  .pipe(
    operation({
      id: "Accounts_RegenerateRecoveryCodes",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 409, 429, 500, 503],
      summary: "Replace the recovery codes by ten new ones, shown once",
      description: "With a current TOTP code or an unused recovery code, replaces every recovery code of the caller " +
        "by ten new single-use ones, answered exactly once (a replay answers `recoveryCodes: null`, `delivery: " +
        "ALREADY_SHOWN`); the old ones stop working. 400 `invalid-request` naming `/code` for a wrong code, 409 " +
        "`mfa-not-enabled` without TOTP. Attempts are throttled (429).",
      errors: [InvalidRequest, MfaNotEnabled, MfaThrottled]
    })
  )

/** Accounts_VerifyMfa: POST /api/v1/auth/mfa. */
export const verifyMfa = HttpApiEndpoint.post("verifyMfa", "/api/v1/auth/mfa")
  .setPayload(MfaCodeRequest)
  .addSuccess(Data(MfaVerified))
  .pipe(
    operation({
      id: "Accounts_VerifyMfa",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 409, 429, 500, 503],
      summary: "Verify the second factor: completes a sign-in, or steps a session up",
      description: "A current TOTP code (±30 s, each time step accepted once) or an unused recovery code (single use). " +
        "After Accounts_SignIn answered `mfaRequired: true`, the session can call nothing but this operation (every " +
        "other one answers 401) until it succeeds. On a fully signed-in session it is a step-up: the session's " +
        "authentication becomes recent, so sensitive operations (spec §5.2) pass without a new sign-in for " +
        "RECENT_AUTH_SECONDS. A session command: send `X-CSRF-Token`. 400 `invalid-request` naming `/code` for a wrong " +
        "or replayed code, 409 `mfa-not-enabled` without TOTP; attempts are throttled (429 `mfa-throttled`).",
      errors: [InvalidRequest, MfaNotEnabled, MfaThrottled]
    })
  )
