/** SQL of the second factor: an account's TOTP authenticator, its recovery codes, and completing a half signed-in session. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"

const TotpRow = Schema.Struct({
  state: Schema.Literal("PENDING", "ENABLED"),
  secret_sealed: Schema.String,
  last_time_step: Schema.NullOr(Schema.Number)
})
/** An account's authenticator as stored (the secret sealed). */
export type TotpRow = typeof TotpRow.Type

export class MfaRepo extends Effect.Service<MfaRepo>()("agent-directory/MfaRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const totp = SqlSchema.findOne({
      Request: Schema.String,
      Result: TotpRow,
      execute: (accountId) =>
        sql`SELECT state, secret_sealed, last_time_step FROM mfa_totp WHERE account_id = ${accountId} FOR UPDATE`
    })
    const email = SqlSchema.single({
      Request: Schema.String,
      Result: Schema.Struct({ email: Schema.String }),
      execute: (accountId) => sql`SELECT email FROM accounts WHERE id = ${accountId}`
    })
    const codesLeft = SqlSchema.single({
      Request: Schema.String,
      Result: Schema.Struct({ n: Schema.Number }),
      execute: (accountId) =>
        sql`SELECT count(*)::int AS n FROM mfa_recovery_codes WHERE account_id = ${accountId} AND used_at IS NULL`
    })
    return {
      /** The account's authenticator, locked for the rest of the transaction (attempts on one account run one at a time). */
      totp: (accountId: string): Effect.Effect<Option.Option<TotpRow>> => Effect.orDie(totp(accountId)),
      /** The account's email (the authenticator's label). */
      email: (accountId: string) => Effect.orDie(email(accountId)).pipe(Effect.map((r) => r.email)),
      /** Stores a new PENDING authenticator, replacing a pending one (never an ENABLED one). */
      putPending: (r: { readonly accountId: string; readonly sealed: string; readonly at: Date }) =>
        Effect.orDie(sql`
          INSERT INTO mfa_totp (account_id, state, secret_sealed, last_time_step, created_at, enabled_at)
          VALUES (${r.accountId}, 'PENDING', ${r.sealed}, NULL, ${r.at}, NULL)
          ON CONFLICT (account_id) DO UPDATE
            SET state = 'PENDING', secret_sealed = EXCLUDED.secret_sealed, last_time_step = NULL,
                created_at = EXCLUDED.created_at, enabled_at = NULL
            WHERE mfa_totp.state = 'PENDING'`),
      /** Enables the account's pending authenticator. */
      enable: (accountId: string, at: Date) =>
        Effect.orDie(sql`UPDATE mfa_totp SET state = 'ENABLED', enabled_at = ${at} WHERE account_id = ${accountId}`),
      /** Records `step` as used; false when it (or a later one) already was (a replayed code). */
      useStep: (accountId: string, step: number) =>
        Effect.orDie(sql`
          UPDATE mfa_totp SET last_time_step = ${step}
          WHERE account_id = ${accountId} AND (last_time_step IS NULL OR last_time_step < ${step})
          RETURNING account_id`).pipe(Effect.map((rows) => rows.length === 1)),
      /** Removes the authenticator and every recovery code of the account. */
      remove: (accountId: string) =>
        Effect.orDie(Effect.zipRight(
          sql`DELETE FROM mfa_recovery_codes WHERE account_id = ${accountId}`,
          sql`DELETE FROM mfa_totp WHERE account_id = ${accountId}`
        )),
      /** Replaces the account's recovery codes by these (SHA-256 hashes, with their ids). */
      replaceCodes: (r: {
        readonly accountId: string
        readonly codes: ReadonlyArray<{ readonly id: string; readonly hash: Uint8Array }>
        readonly at: Date
      }) =>
        Effect.orDie(Effect.zipRight(
          sql`DELETE FROM mfa_recovery_codes WHERE account_id = ${r.accountId}`,
          sql`INSERT INTO mfa_recovery_codes ${
            sql.insert(r.codes.map((c) => ({ id: c.id, account_id: r.accountId, code_hash: c.hash, created_at: r.at })))
          }`
        )),
      /** Marks the unused recovery code of this hash used; false when there is none (unknown or used). */
      useCode: (accountId: string, hash: Uint8Array, at: Date) =>
        Effect.orDie(sql`
          UPDATE mfa_recovery_codes SET used_at = ${at}
          WHERE account_id = ${accountId} AND code_hash = ${hash} AND used_at IS NULL
          RETURNING id`).pipe(Effect.map((rows) => rows.length > 0)),
      /** How many unused recovery codes the account has. */
      codesLeft: (accountId: string) => Effect.orDie(codesLeft(accountId)).pipe(Effect.map((r) => r.n)),
      /** Completes a session's second factor: fully signed in, authenticated now (step-up). */
      authenticateSession: (sessionId: string, at: Date) =>
        Effect.orDie(sql`UPDATE sessions SET mfa_pending = false, authenticated_at = ${at} WHERE id = ${sessionId}`)
    }
  })
}) {}
