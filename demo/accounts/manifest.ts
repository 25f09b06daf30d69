/**
 * The accounts area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoAccounts, DemoAccountTokens, DemoAdminMfa, DemoApiKeys, DemoOtherSession, demoCredentials } from "./seed.js"
import { DemoWorkspaces } from "../workspaces/seed.js"

/** The accounts area's demo requests, by operationId. */
export const AccountsManifest = {
  Accounts_SignIn: { as: "anonymous", path: {}, query: {}, body: demoCredentials("owner") },
  Accounts_SignUp: {
    as: "anonymous",
    path: {},
    query: {},
    body: { email: "new.user@demo.agent-directory.dev", password: "vivid-otter-marble-92", displayName: "Nia Newcomer" },
    note: "signs up a new address: the verification link goes to the development outbox (`MAIL_OUTBOX_DIR`)."
  },
  Accounts_VerifyEmail: { as: "anonymous", path: {}, query: {}, body: { token: DemoAccountTokens.verification.token } },
  Accounts_RequestPasswordReset: { as: "anonymous", path: {}, query: {}, body: { email: DemoAccounts.member.email } },
  Accounts_CompletePasswordReset: {
    as: "anonymous",
    path: {},
    query: {},
    // the outsider's password stays the demo one
    body: { token: DemoAccountTokens.reset.token, password: DemoAccounts.outsider.password }
  },
  Accounts_GetMe: { as: "member", path: {}, query: {}, body: null },
  Accounts_ListSessions: { as: "owner", path: {}, query: {}, body: null },
  Accounts_RevokeSession: { as: "owner", path: { sessionId: DemoOtherSession.id }, query: {}, body: null },
  Accounts_CreateApiKey: {
    as: "owner",
    path: { workspacePublicId: DemoWorkspaces.acme.id },
    query: {},
    body: { name: "Partner dashboard", scopes: ["public:read"], allowedOrigins: ["https://dashboard.example.com"] }
  },
  Accounts_ListApiKeys: { as: "owner", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: {}, body: null },
  Accounts_RevokeApiKey: {
    as: "owner",
    path: { workspacePublicId: DemoWorkspaces.acme.id, apiKeyPublicId: DemoApiKeys.paused.id },
    query: {},
    body: null
  },
  // the second factor: TOTP codes change every 30 s, so the examples use the demo admin's recovery codes or refusals
  Accounts_VerifyMfa: {
    as: "admin",
    path: {},
    query: {},
    body: { code: DemoAdminMfa.recoveryCodes[9] },
    note: "A step-up of the demo admin's session with its last demo recovery code (single use: once per database); " +
      "a TOTP code of the demo secret DEMOADMINTOTPSECRETDEMOADMINTOTP works the same."
  },
  Accounts_EnrollTotp: { as: "member", path: {}, query: {}, body: null },
  Accounts_ConfirmTotp: {
    as: "owner",
    path: {},
    query: {},
    body: { code: "123456" },
    note: "The demo owner has no pending enrollment (enroll first with Accounts_EnrollTotp, then send a current code of the secret).",
    problem: { status: 409, type: "mfa-enrollment-not-pending" }
  },
  Accounts_DisableTotp: {
    as: "owner",
    path: {},
    query: {},
    body: { code: "123456" },
    note: "The demo owner has no authenticator (turning the demo admin's off would bar it from admin operations).",
    problem: { status: 409, type: "mfa-not-enabled" }
  },
  Accounts_RegenerateRecoveryCodes: {
    as: "owner",
    path: {},
    query: {},
    body: { code: "123456" },
    note: "The demo owner has no authenticator (the demo admin's recovery codes stay the documented ones).",
    problem: { status: 409, type: "mfa-not-enabled" }
  }
} satisfies Record<string, ManifestOperation>
