/** Accounts area (spec §5.2): sign-in and browser sessions. */
import { Schema } from "effect"
import { DateTimeZ, StrictStruct, Uuid, WireString } from "./common.js"
import { WorkspaceRole } from "./workspaces.js"

/** Body of Accounts_SignIn. */
export const SignInRequest = StrictStruct({
  email: WireString(3, 320),
  password: WireString(1, 1024)
}).annotations({ identifier: "SignInRequest" })

/**
 * `data` of Accounts_SignIn. `csrfToken` must be sent as `X-CSRF-Token` on every
 * session command; the session secret itself is only in the HttpOnly cookie.
 * `mfaRequired`: the second factor is still to be verified (Accounts_VerifyMfa).
 */
export const SignInResult = Schema.Struct({
  accountPublicId: Uuid,
  sessionId: Uuid,
  csrfToken: Schema.String,
  expiresAt: DateTimeZ,
  /** True when the account has a second factor: the session is half signed in until Accounts_VerifyMfa succeeds. */
  mfaRequired: Schema.Boolean.annotations({
    description: "The account has a second factor: call Accounts_VerifyMfa with a code before anything else"
  })
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

/** One workspace of the signed-in account with its role there (spec §5.2 roles). */
export const MeWorkspace = Schema.Struct({
  publicId: Uuid,
  name: Schema.String,
  slug: Schema.String,
  role: WorkspaceRole,
  isWorkspaceOwner: Schema.Boolean,
  isDefault: Schema.Boolean
}).annotations({ identifier: "MeWorkspace" })

/**
 * `data` of Accounts_GetMe: the signed-in account and its ACTIVE memberships (default
 * workspace first, then by name). Shape ours (spec §9 names the operation only).
 */
export const Me = Schema.Struct({
  publicId: Uuid,
  email: Schema.String,
  displayName: Schema.String,
  isAdmin: Schema.Boolean,
  workspaces: Schema.Array(MeWorkspace)
}).annotations({
  identifier: "Me",
  examples: [{
    publicId: "01900001-0000-7000-8000-000000000003",
    email: "member@demo.agent-directory.dev",
    displayName: "Mel Member",
    isAdmin: false,
    workspaces: [{
      publicId: "01900002-0000-7000-8000-000000000001",
      name: "Acme Agents",
      slug: "acme-agents",
      role: "EDITOR",
      isWorkspaceOwner: false,
      isDefault: true
    }]
  }]
})

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
