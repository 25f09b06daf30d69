/** Accounts area (spec §5.2): sign-in and browser sessions. */
import { Schema } from "effect"
import { DateTimeZ, StrictStruct, Uuid, WireString } from "./common.js"

/** Body of Accounts_SignIn. */
export const SignInRequest = StrictStruct({
  email: WireString(3, 320),
  password: WireString(1, 1024)
}).annotations({ identifier: "SignInRequest" })

/**
 * `data` of Accounts_SignIn. `csrfToken` must be sent as `X-CSRF-Token` on every
 * session command; the session secret itself is only in the HttpOnly cookie.
 */
export const SignInResult = Schema.Struct({
  accountPublicId: Uuid,
  sessionId: Uuid,
  csrfToken: Schema.String,
  expiresAt: DateTimeZ
}).annotations({ identifier: "SignInResult" })

/** One of the caller's browser sessions. */
export const AccountSession = Schema.Struct({
  sessionId: Uuid,
  current: Schema.Boolean,
  createdAt: DateTimeZ,
  authenticatedAt: DateTimeZ,
  lastSeenAt: DateTimeZ,
  expiresAt: DateTimeZ,
  userAgent: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AccountSession" })

/** Path of Accounts_RevokeSession: sessionId is a string of 1-200 chars (spec §4.3). */
export const RevokeSessionPath = Schema.Struct({
  sessionId: WireString(1, 200)
})

/** `data` of Accounts_RevokeSession: how many sessions were revoked. */
export const RevokeSessionResult = Schema.Struct({
  revoked: Schema.Int.pipe(Schema.nonNegative())
}).annotations({ identifier: "RevokeSessionResult" })

/**
 * `X-CSRF-Token` request header of session commands (spec §5.2): the `csrfToken`
 * that Accounts_SignIn returned for the session. The auth middleware checks it (a
 * missing or wrong token is 403 `csrf-token-invalid`, not a 400), so it is
 * documented from this Schema rather than decoded as an endpoint header.
 */
export const CsrfTokenHeader = Schema.String.pipe(Schema.minLength(1)).annotations({
  description: "The `data.csrfToken` that Accounts_SignIn returned for this session",
  examples: ["paste data.csrfToken from the Accounts_SignIn response"]
})
