/**
 * Demo data of the accounts area, and its seed step (run by `demo/seed.ts` in the order of
 * `src/areas.ts`).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { tokenHash } from "../../layers/Auth.js"
import { hashPassword } from "../../layers/Password.js"
import { recoveryCodeHash, totpSecretAad, totpSecretCipher } from "../../src/accounts/mfa/Mfa.js"
import { demoTime, demoId as id } from "../common.js"

/** A well-formed demo API key: `adk_<prefix>_<43 chars>`. */
const demoKey = (prefix: string, label: string) => `adk_${prefix}_${label.repeat(8).slice(0, 43)}`

/** The demo accounts (passwords are public by design). */
export const DemoAccounts = {
  admin: { id: id(1, 1), email: "admin@demo.agent-directory.dev", password: "demo-admin-password", displayName: "Ada Admin", isAdmin: true },
  owner: { id: id(1, 2), email: "owner@demo.agent-directory.dev", password: "demo-owner-password", displayName: "Olive Owner", isAdmin: false },
  member: { id: id(1, 3), email: "member@demo.agent-directory.dev", password: "demo-member-password", displayName: "Mel Member", isAdmin: false },
  outsider: { id: id(1, 4), email: "outsider@demo.agent-directory.dev", password: "demo-outsider-password", displayName: "Otto Outsider", isAdmin: false }
} as const
export type DemoAccountName = keyof typeof DemoAccounts

/** The sign-in body of a demo account. */
export const demoCredentials = (name: DemoAccountName) => ({
  email: DemoAccounts[name].email,
  password: DemoAccounts[name].password
})

/**
 * The demo admin's second factor (administrator operations need one): TOTP with this
 * fixed, public secret (add it to an authenticator app, or compute codes with
 * `totpCode` of src/accounts/mfa/Totp.ts) and ten recovery codes, each usable once per
 * database. Demo data only: never a real account's secret.
 */
export const DemoAdminMfa = {
  account: "admin",
  secret: "DEMOADMINTOTPSECRETDEMOADMINTOTP",
  recoveryCodes: Array.from({ length: 10 }, (_, i) => `demo0-${String(i + 1).padStart(5, "0")}`)
} as const

/**
 * A session of the owner on another device, so that Accounts_RevokeSession has a
 * session to revoke on a fresh database. Its token is unknown (unusable).
 */
export const DemoOtherSession = { id: id(1, 100), account: "owner", days: 1, expires: new Date("2030-01-01T00:00:00.000Z") } as const

/**
 * Demo API keys (plaintext, since this set is public). `public` is ACTIVE with the
 * public scopes; the others exist to show that every kind of bad key gets one 401.
 */
export const DemoApiKeys = {
  public: { id: id(11, 1), key: demoKey("0a1b2c3d4e5f", "DemoPublicKey"), scopes: ["public:read", "agents:read"], state: "ACTIVE", environment: "development", expired: false, allowedOrigins: [] },
  agentsOnly: { id: id(11, 2), key: demoKey("1a1b2c3d4e5f", "DemoAgentsOnlyKey"), scopes: ["agents:read"], state: "ACTIVE", environment: "development", expired: false, allowedOrigins: [] },
  paused: { id: id(11, 3), key: demoKey("2a1b2c3d4e5f", "DemoPausedKey"), scopes: ["public:read"], state: "PAUSED", environment: "development", expired: false, allowedOrigins: [] },
  revoked: { id: id(11, 4), key: demoKey("3a1b2c3d4e5f", "DemoRevokedKey"), scopes: ["public:read"], state: "REVOKED", environment: "development", expired: false, allowedOrigins: [] },
  expired: { id: id(11, 5), key: demoKey("4a1b2c3d4e5f", "DemoExpiredKey"), scopes: ["public:read"], state: "ACTIVE", environment: "development", expired: true, allowedOrigins: [] },
  production: { id: id(11, 6), key: demoKey("5a1b2c3d4e5f", "DemoProductionKey"), scopes: ["public:read"], state: "ACTIVE", environment: "production", expired: false, allowedOrigins: [] },
  // usable from one browser origin (spec §5.4.2)
  browser: {
    id: id(11, 7), key: demoKey("6a1b2c3d4e5f", "DemoBrowserKey"), scopes: ["public:read"], state: "ACTIVE", environment: "development",
    expired: false, allowedOrigins: ["https://app.demo.agent-directory.dev"]
  }
} as const

/**
 * Mailed-link tokens of the demo (plaintext, since this set is public), so that
 * Accounts_VerifyEmail and Accounts_CompletePasswordReset have a token to take on a
 * fresh database: a verification token of the (already verified) member, and a
 * password reset token of the outsider. Both expire in 2030.
 */
export const DemoAccountTokens = {
  verification: { id: id(1, 200), account: "member", purpose: "EMAIL_VERIFICATION", token: "demo-email-verification-token-of-the-member" },
  reset: { id: id(1, 201), account: "outsider", purpose: "PASSWORD_RESET", token: "demo-password-reset-token-of-the-outsider00" },
  expires: new Date("2030-01-01T00:00:00.000Z")
} as const

/**
 * Inserts the demo accounts (their passwords hashed as at sign-up, their emails verified), the owner's other
 * session, the demo's mailed-link tokens and the admin's second factor ({@link DemoAdminMfa}), inside the seed's
 * transaction. Requires `AppConfig` (the TOTP sealing key). Fails with `SqlError`.
 */
export const seedAccounts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const hashes = yield* Effect.forEach(Object.values(DemoAccounts), (a) => hashPassword(a.password), { concurrency: 4 })
  yield* sql`INSERT INTO accounts ${
    sql.insert(Object.values(DemoAccounts).map((a, i) => ({
      id: a.id,
      email: a.email,
      display_name: a.displayName,
      password_hash: hashes[i]!,
      is_admin: a.isAdmin,
      created_at: demoTime(0),
      email_verified_at: demoTime(0)
    })))
  }`
  yield* sql`INSERT INTO sessions ${
    sql.insert({
      id: DemoOtherSession.id,
      account_id: DemoAccounts[DemoOtherSession.account].id,
      token_hash: tokenHash(`unusable-demo-session-${DemoOtherSession.id}`),
      csrf_hash: tokenHash(`unusable-demo-csrf-${DemoOtherSession.id}`),
      user_agent: "Demo browser on another device",
      created_at: demoTime(DemoOtherSession.days),
      authenticated_at: demoTime(DemoOtherSession.days),
      last_seen_at: demoTime(DemoOtherSession.days),
      expires_at: DemoOtherSession.expires
    })
  }`
  yield* sql`INSERT INTO account_tokens ${
    sql.insert([DemoAccountTokens.verification, DemoAccountTokens.reset].map((t) => ({
      id: t.id,
      account_id: DemoAccounts[t.account].id,
      purpose: t.purpose,
      token_hash: tokenHash(t.token),
      expires_at: DemoAccountTokens.expires,
      used_at: null,
      created_at: demoTime(0)
    })))
  }`
  // the admin's confirmed TOTP, sealed with this deployment's key (APP_SECRET)
  const config = yield* AppConfig
  const adminId = DemoAccounts[DemoAdminMfa.account].id
  yield* sql`INSERT INTO mfa_totp ${
    sql.insert({
      account_id: adminId,
      state: "ENABLED",
      secret_sealed: totpSecretCipher(config.keys.mfaTotp).seal(Redacted.make(DemoAdminMfa.secret), totpSecretAad(adminId)),
      last_time_step: null,
      created_at: demoTime(0),
      enabled_at: demoTime(0)
    })
  }`
  yield* sql`INSERT INTO mfa_recovery_codes ${
    sql.insert(DemoAdminMfa.recoveryCodes.map((code, i) => ({
      id: id(1, 210 + i),
      account_id: adminId,
      code_hash: recoveryCodeHash(code),
      created_at: demoTime(0),
      used_at: null
    })))
  }`
})
