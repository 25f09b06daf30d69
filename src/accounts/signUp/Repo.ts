/**
 * SQL of sign-up, email verification and password reset: accounts by email, pending
 * invitations (`workspace_invitations`, read only), and the single-use account tokens
 * (`account_tokens`: SHA-256 of the token, purpose, expiry, use).
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { DateTimeZ } from "../../../schema/common.js"

/** What an account token is for. */
export type TokenPurpose = "EMAIL_VERIFICATION" | "PASSWORD_RESET"

const AccountByEmail = Schema.Struct({ id: Schema.String, verified: Schema.Boolean })
const AccountOfToken = Schema.Struct({
  account_id: Schema.String,
  token_hash: Schema.Uint8ArrayFromSelf,
  email: Schema.String,
  display_name: Schema.String
})

export class SignUpRepo extends Effect.Service<SignUpRepo>()("agent-directory/SignUpRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const byEmail = SqlSchema.findOne({
      Request: Schema.String,
      Result: AccountByEmail,
      execute: (email) =>
        sql`SELECT id, email_verified_at IS NOT NULL AS verified FROM accounts WHERE lower(email) = lower(${email}) FOR UPDATE`
    })
    const invited = SqlSchema.findOne({
      Request: Schema.Struct({ email: Schema.String, at: Schema.DateFromSelf }),
      Result: Schema.Struct({ id: Schema.String }),
      execute: (r) =>
        sql`SELECT id FROM workspace_invitations
            WHERE lower(recipient_email) = lower(${r.email}) AND state = 'PENDING' AND expires_at > ${r.at} LIMIT 1`
    })
    const consume = SqlSchema.findOne({
      Request: Schema.Struct({ hash: Schema.Uint8ArrayFromSelf, purpose: Schema.String, at: Schema.DateFromSelf }),
      Result: AccountOfToken,
      execute: (r) =>
        sql`UPDATE account_tokens t SET used_at = ${r.at} FROM accounts a
            WHERE t.token_hash = ${r.hash} AND t.purpose = ${r.purpose} AND t.used_at IS NULL AND t.expires_at > ${r.at}
              AND a.id = t.account_id
            RETURNING t.account_id, t.token_hash, a.email, a.display_name`
    })
    const markVerified = SqlSchema.single({
      Request: Schema.Struct({ accountId: Schema.String, at: Schema.DateFromSelf }),
      Result: Schema.Struct({ verifiedAt: DateTimeZ }),
      execute: (r) =>
        sql`UPDATE accounts SET email_verified_at = COALESCE(email_verified_at, ${r.at})
            WHERE id = ${r.accountId} RETURNING api_ts(email_verified_at) AS "verifiedAt"`
    })
    return {
      /** The account of an email (case-insensitive), locked for the transaction, with whether it is verified. */
      byEmail: (email: string) => Effect.orDie(byEmail(email)),
      /** Whether a PENDING, unexpired workspace invitation was sent to `email`. */
      invited: (email: string, at: Date) => Effect.orDie(invited({ email, at })).pipe(Effect.map(Option.isSome)),
      /** Inserts an unverified account; `false` when the email is taken (a concurrent sign-up). */
      insertAccount: (r: { readonly id: string; readonly email: string; readonly displayName: string; readonly passwordHash: string; readonly at: Date }) =>
        sql`INSERT INTO accounts ${
          sql.insert({
            id: r.id,
            email: r.email,
            display_name: r.displayName,
            password_hash: r.passwordHash,
            is_admin: false,
            created_at: r.at,
            email_verified_at: null
          })
        } ON CONFLICT DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      /** A new sign-up of an unverified account: the latest display name and password win. */
      updateUnverified: (r: { readonly id: string; readonly displayName: string; readonly passwordHash: string }) =>
        Effect.orDie(sql`UPDATE accounts SET display_name = ${r.displayName}, password_hash = ${r.passwordHash}
                         WHERE id = ${r.id} AND email_verified_at IS NULL`),
      /** Stores a new token of `purpose` for the account; every earlier unused one of that purpose is used up (dead). */
      issueToken: (r: {
        readonly id: string
        readonly accountId: string
        readonly purpose: TokenPurpose
        readonly hash: Uint8Array
        readonly expiresAt: Date
        readonly at: Date
      }) =>
        Effect.orDie(Effect.zipRight(
          sql`UPDATE account_tokens SET used_at = ${r.at}
              WHERE account_id = ${r.accountId} AND purpose = ${r.purpose} AND used_at IS NULL`,
          sql`INSERT INTO account_tokens ${
            sql.insert({
              id: r.id,
              account_id: r.accountId,
              purpose: r.purpose,
              token_hash: r.hash,
              expires_at: r.expiresAt,
              used_at: null,
              created_at: r.at
            })
          }`
        )),
      /**
       * Uses up the live (unused, unexpired) token of `purpose` whose SHA-256 is `hash`;
       * returns its account (id, email, display name) and the stored hash, or none.
       */
      consume: (hash: Uint8Array, purpose: TokenPurpose, at: Date) => Effect.orDie(consume({ hash, purpose, at })),
      /** Marks the account's email verified (kept as it was when it already is); returns when. */
      markVerified: (accountId: string, at: Date) => Effect.orDie(markVerified({ accountId, at })).pipe(Effect.map((r) => r.verifiedAt)),
      /** Replaces the account's password hash. */
      setPassword: (accountId: string, passwordHash: string) =>
        Effect.orDie(sql`UPDATE accounts SET password_hash = ${passwordHash} WHERE id = ${accountId}`),
      /** Revokes every live session of the account; returns how many. */
      revokeSessions: (accountId: string, at: Date) =>
        sql`UPDATE sessions SET revoked_at = ${at} WHERE account_id = ${accountId} AND revoked_at IS NULL AND expires_at > ${at}
            RETURNING id`.pipe(Effect.map((rows) => rows.length), Effect.orDie)
    }
  })
}) {}
