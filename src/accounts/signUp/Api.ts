/**
 * Sign-up, email verification and password reset endpoints (ours; spec §5.2 browser
 * accounts), added to the Accounts group by `src/accounts/Api.ts`. All four are public
 * commands without a session, like Accounts_SignIn, and take no Idempotency-Key: each
 * is safe to retry by design (a repeated sign-up or reset request answers the same 202
 * and mails a fresh link that kills the earlier ones; a used token answers
 * `token-invalid`), and no request fingerprint holding a password is stored.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Data } from "../../../schema/envelope.js"
import { InvalidRequest, MailThrottled } from "../../../schema/errors.js"
import { operation } from "../../api/operation.js"
import { SignUpClosed, TokenInvalid } from "../Errors.js"
import {
  CompletePasswordResetRequest,
  EmailVerified,
  MailAccepted,
  PasswordResetDone,
  RequestPasswordResetRequest,
  SignUpRequest,
  VerifyEmailRequest
} from "./Schemas.js"

const strength = "The password must be 12-1024 characters and score at least 3 of 4 on the zxcvbn strength estimate " +
  "(its user inputs: the email and display name); a weaker one is a 400 `invalid-request` whose `errors` names " +
  "`/password` and the rule, never the value."

/** Accounts_SignUp: POST /api/v1/auth/sign-up. */
export const signUp = HttpApiEndpoint.post("signUp", "/api/v1/auth/sign-up")
  .setPayload(SignUpRequest)
  .addSuccess(Data(MailAccepted), { status: 202 })
  .pipe(
    operation({
      id: "Accounts_SignUp",
      auth: "public",
      cache: "none",
      statuses: [400, 403, 429, 500, 503],
      summary: "Sign up with email and password; a verification link is mailed",
      description: [
        "Creates an unverified account and mails a single-use verification link",
        "(`{PUBLIC_BASE_URL}/verify-email#token=…`, valid EMAIL_VERIFICATION_TTL_HOURS); the account can sign in once",
        "Accounts_VerifyEmail has taken the token. The answer is the same 202 `{accepted: true}` whether or not the email",
        "is taken: a taken (verified) email gets a mail saying it already has an account (and how to reset the password)",
        "instead. Signing up again before verifying sets the new password and display name and mails a new link (the",
        "earlier ones stop working). SIGN_UP decides who may sign up: `open`; `invitation` (only an address with a",
        "PENDING, unexpired workspace invitation; any other gets a mail saying sign-up is by invitation only, and the",
        "same 202); `closed` (403 `sign-up-closed`). Mails per recipient and client are limited (429 `mail-throttled`).",
        strength,
        "No Idempotency-Key: retrying is safe (the same 202, a fresh link)."
      ].join(" "),
      errors: [SignUpClosed, InvalidRequest, MailThrottled]
    })
  )

/** Accounts_VerifyEmail: POST /api/v1/auth/email-verification. */
export const verifyEmail = HttpApiEndpoint.post("verifyEmail", "/api/v1/auth/email-verification")
  .setPayload(VerifyEmailRequest)
  .addSuccess(Data(EmailVerified))
  .pipe(
    operation({
      id: "Accounts_VerifyEmail",
      auth: "public",
      cache: "none",
      statuses: [400, 500, 503],
      summary: "Verify the email of a new account with the mailed token",
      description: "Takes the token of the verification link (the part after `#token=`) and activates its account " +
        "(`emailVerifiedAt`); from then on the account can sign in. A token works once: an unknown, used or expired " +
        "token is one 400 `token-invalid` (sign up again for a new link).",
      errors: [TokenInvalid]
    })
  )

/** Accounts_RequestPasswordReset: POST /api/v1/auth/password-reset. */
export const requestPasswordReset = HttpApiEndpoint.post("requestPasswordReset", "/api/v1/auth/password-reset")
  .setPayload(RequestPasswordResetRequest)
  .addSuccess(Data(MailAccepted), { status: 202 })
  .pipe(
    operation({
      id: "Accounts_RequestPasswordReset",
      auth: "public",
      cache: "none",
      statuses: [400, 429, 500, 503],
      summary: "Ask for a password reset link by mail",
      description: "Always the same 202 `{accepted: true}`; when an account has the email, it is mailed a single-use " +
        "link `{PUBLIC_BASE_URL}/reset-password#token=…` valid PASSWORD_RESET_TTL_MINUTES (a new link kills the " +
        "earlier ones). Mails per recipient and client are limited (429 `mail-throttled`).",
      errors: [MailThrottled]
    })
  )

/** Accounts_CompletePasswordReset: POST /api/v1/auth/password-reset/complete. */
export const completePasswordReset = HttpApiEndpoint.post("completePasswordReset", "/api/v1/auth/password-reset/complete")
  .setPayload(CompletePasswordResetRequest)
  .addSuccess(Data(PasswordResetDone))
  .pipe(
    operation({
      id: "Accounts_CompletePasswordReset",
      auth: "public",
      cache: "none",
      statuses: [400, 500, 503],
      summary: "Set a new password with the mailed reset token; signs out everywhere",
      description: "Takes the token of the reset link and the new password: sets the password, revokes every session " +
        "of the account (`sessionsRevoked`) and marks its email verified (the mail proved it). Sign in afterwards. A " +
        "token works once: an unknown, used or expired token is one 400 `token-invalid`; a too weak password leaves " +
        "the token usable. " + strength,
      errors: [TokenInvalid, InvalidRequest]
    })
  )
