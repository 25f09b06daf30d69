/**
 * Sign-up, email verification and password reset (ours: spec §5.2 browser accounts):
 * the request bodies and answers. Tokens come from the mailed links' fragment
 * (`#token=…`); passwords are checked for length here and for strength by the service.
 */
import { Schema } from "effect"
import { DateTimeZ, Email, StrictStruct, Uuid, WireString } from "../../../schema/common.js"

/** Minimum and maximum password length, in characters (as `npm run accounts:create`). */
export const PasswordBounds = { min: 12, max: 1024 } as const

const EmailField = Schema.compose(WireString(3, 320), Email).annotations({
  description: "email address (local@domain.tld), 3-320 characters"
})
const PasswordField = WireString(PasswordBounds.min, PasswordBounds.max)
const TokenField = WireString(20, 200).annotations({ description: "the token of the mailed link (after `#token=`)" })

/** Body of Accounts_SignUp. */
export const SignUpRequest = StrictStruct({
  email: EmailField,
  password: PasswordField.annotations({
    description: "12-1024 characters, and strong enough: a zxcvbn strength score of at least 3 of 4 (no common words, " +
      "names, sequences or parts of the email and display name)"
  }),
  displayName: WireString(1, 160)
}).annotations({ identifier: "SignUpRequest" })

/**
 * `data` of Accounts_SignUp and Accounts_RequestPasswordReset: the same whatever the email
 * (taken or not, known or not), so the answer never tells whether an account exists.
 */
export const MailAccepted = Schema.Struct({
  accepted: Schema.Literal(true).annotations({ description: "always true: a mail is on its way if the request allows one" })
}).annotations({ identifier: "MailAccepted", examples: [{ accepted: true }] })

/** Body of Accounts_VerifyEmail. */
export const VerifyEmailRequest = StrictStruct({ token: TokenField }).annotations({ identifier: "VerifyEmailRequest" })

/** `data` of Accounts_VerifyEmail: the account now verified. */
export const EmailVerified = Schema.Struct({
  accountPublicId: Uuid,
  emailVerifiedAt: DateTimeZ
}).annotations({ identifier: "EmailVerified" })

/** Body of Accounts_RequestPasswordReset. */
export const RequestPasswordResetRequest = StrictStruct({ email: EmailField }).annotations({ identifier: "RequestPasswordResetRequest" })

/** Body of Accounts_CompletePasswordReset. */
export const CompletePasswordResetRequest = StrictStruct({
  token: TokenField,
  password: PasswordField.annotations({ description: "the new password: 12-1024 characters, zxcvbn score at least 3 of 4" })
}).annotations({ identifier: "CompletePasswordResetRequest" })

/** `data` of Accounts_CompletePasswordReset. */
export const PasswordResetDone = Schema.Struct({
  accountPublicId: Uuid,
  sessionsRevoked: Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "how many live sessions were revoked" })
}).annotations({ identifier: "PasswordResetDone" })
