/**
 * The problem causes of the second factor (src/accounts/mfa). A wrong code is the shared
 * 400 `invalid-request` naming `/code`.
 */
import { Problem } from "../../../schema/problem.js"

/** 409 `mfa-already-enabled`: the account already has a confirmed authenticator; disable it first. */
export class MfaAlreadyEnabled extends Problem<MfaAlreadyEnabled>()("MfaAlreadyEnabled", {
  status: 409, type: "mfa-already-enabled", meaning: "the account already has a confirmed authenticator; disable it first"
}) {}
/** 409 `mfa-not-enabled`: the account has no confirmed authenticator. */
export class MfaNotEnabled extends Problem<MfaNotEnabled>()("MfaNotEnabled", {
  status: 409, type: "mfa-not-enabled", meaning: "the account has no confirmed authenticator"
}) {}
/** 409 `mfa-enrollment-not-pending`: there is no pending TOTP enrollment to confirm. */
export class MfaEnrollmentNotPending extends Problem<MfaEnrollmentNotPending>()("MfaEnrollmentNotPending", {
  status: 409, type: "mfa-enrollment-not-pending", meaning: "there is no pending TOTP enrollment to confirm"
}) {}
/** 429 `mfa-throttled`: too many second-factor attempts for this account or address; retry after `Retry-After` seconds. */
export class MfaThrottled extends Problem<MfaThrottled>()("MfaThrottled", {
  status: 429, type: "mfa-throttled", meaning: "too many second-factor attempts for this account or address; retry after `Retry-After` seconds"
}) {}
