/**
 * Sign-up with email, email verification and password reset (ours; spec §5.2 browser
 * accounts). Rules:
 *
 * - No enumeration: Accounts_SignUp and Accounts_RequestPasswordReset answer the same
 *   202 whatever the email; what differs is only the mail the address receives
 *   (verification link, "you already have an account", "sign-up is by invitation
 *   only", or none for a reset of an unknown address). Every sign-up hashes the
 *   password, taken email or not, and every mail leaves after the response's
 *   transaction commits, off the response's path (see {@link sendAfterCommit}).
 * - `SIGN_UP` (AccountSettings): `open`; `invitation` (only an address with a PENDING,
 *   unexpired workspace invitation gets an account); `closed` → 403 `sign-up-closed`.
 * - Tokens: random 256-bit, mailed in a link's fragment (`${publicBaseUrl}/verify-email#token=…`,
 *   `…/reset-password#token=…`), stored only as SHA-256, single-use, expiring
 *   (`EMAIL_VERIFICATION_TTL_HOURS`, `PASSWORD_RESET_TTL_MINUTES`); a new one of the same
 *   purpose kills the earlier ones.
 * - Passwords: 12-1024 characters (schema) and a zxcvbn score of at least 3 (PasswordStrength.ts).
 * - Audit (account-level, workspace null): `account.signed_up`, `account.email_verified`,
 *   `account.password_reset`.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import { randomBytes, timingSafeEqual } from "node:crypto"
import { Effect, Option } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Audit } from "../../../layers/Audit.js"
import { tokenHash } from "../../../layers/Auth.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { Mail, type MailMessage, throttleMail } from "../../../layers/Mail.js"
import { hashPassword } from "../../../layers/Password.js"
import { AccountSettings } from "../Config.js"
import { SignUpClosed, TokenInvalid } from "../Errors.js"
import { requireStrongPassword } from "./PasswordStrength.js"
import { SignUpRepo, type TokenPurpose } from "./Repo.js"

const newToken = () => randomBytes(32).toString("base64url")

/** Sign-up, verification and reset. Requires `SqlClient`, `AppConfig`, `AccountSettings`, `Mail`, `Audit`, `Ids`, `RateBudget`. */
export class SignUp extends Effect.Service<SignUp>()("agent-directory/SignUp", {
  effect: Effect.gen(function*() {
    const repo = yield* SignUpRepo
    const config = yield* AppConfig
    const settings = (yield* AccountSettings).accounts
    const mail = yield* Mail
    const audit = yield* Audit
    const ids = yield* Ids
    const base = config.publicBaseUrl

    /**
     * Sends `message` once the request's transaction has committed: a pre-response
     * handler (it runs after the handler's transaction) that forks the send when the
     * response is a success, so the answer never waits on SMTP (same timing whatever
     * was mailed) and a rolled-back request mails nothing. A failed send is logged
     * (without the message); asking again sends a new link. Call it last.
     */
    const sendAfterCommit = (message: MailMessage) =>
      HttpApp.appendPreResponseHandler((_, response) =>
        response.status >= 300 ? Effect.succeed(response) : Effect.as(
          Effect.forkDaemon(mail.send(message).pipe(
            Effect.catchAll((e) => Effect.logWarning("a sign-up or password reset mail was not sent", { reason: e.detail }))
          )),
          response
        ))

    /** Issues a token of `purpose` for the account (killing its earlier ones); returns the plaintext. */
    const issue = (accountId: string, purpose: TokenPurpose, ttlMs: number, at: Date) =>
      Effect.gen(function*() {
        const token = newToken()
        yield* repo.issueToken({
          id: yield* ids.next,
          accountId,
          purpose,
          hash: tokenHash(token),
          expiresAt: new Date(at.getTime() + ttlMs),
          at
        })
        return token
      })

    /** Uses up a live token of `purpose`; fails with `TokenInvalid` (unknown, used or expired alike). */
    const consume = (token: string, purpose: TokenPurpose, at: Date) =>
      Effect.gen(function*() {
        const hash = tokenHash(token)
        const row = yield* repo.consume(hash, purpose, at)
        const stored = Option.map(row, (r) => Buffer.from(r.token_hash))
        if (Option.isNone(row) || Option.isNone(stored) || stored.value.length !== hash.length || !timingSafeEqual(stored.value, hash)) {
          return yield* new TokenInvalid({ detail: "This link is not valid: it is unknown, already used or expired. Ask for a new one." })
        }
        return row.value
      })

    const verificationMail = (to: string, token: string): MailMessage => ({
      to,
      subject: "Verify your email for Agent Directory",
      text: `Welcome to Agent Directory.\n\nConfirm that this is your email address by opening this link within ` +
        `${settings.emailVerificationTtlHours} hours:\n\n${base}/verify-email#token=${token}\n\n` +
        `If you did not sign up, ignore this mail: no account is activated without this link.\n`
    })
    const alreadyRegisteredMail = (to: string): MailMessage => ({
      to,
      subject: "You already have an Agent Directory account",
      text: `Someone (maybe you) tried to sign up to Agent Directory with this email address, which already has an ` +
        `account. Sign in with it; if you forgot your password, reset it here:\n\n${base}/reset-password\n\n` +
        `If it was not you, ignore this mail: nothing changed.\n`
    })
    const invitationOnlyMail = (to: string): MailMessage => ({
      to,
      subject: "Agent Directory sign-up is by invitation only",
      text: `Someone (maybe you) tried to sign up to Agent Directory with this email address. Sign-up is by ` +
        `invitation only: ask a workspace owner or admin to invite this address, then sign up again.\n`
    })
    const resetMail = (to: string, token: string): MailMessage => ({
      to,
      subject: "Reset your Agent Directory password",
      text: `Someone (maybe you) asked to reset the password of the Agent Directory account of this email address. ` +
        `Choose a new password by opening this link within ${settings.passwordResetTtlMinutes} minutes:\n\n` +
        `${base}/reset-password#token=${token}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`
    })

    /**
     * Accounts_SignUp. Fails with `SignUpClosed` (403, `SIGN_UP=closed`), `InvalidRequest`
     * (400 `password`: too weak) or `MailThrottled` (429); otherwise answers the same
     * whatever the email (see the module docs) and mails the address once.
     */
    const signUp = (input: { readonly email: string; readonly password: string; readonly displayName: string }) =>
      Effect.gen(function*() {
        if (settings.signUp === "closed") {
          return yield* new SignUpClosed({ detail: "Sign-up is closed on this deployment; ask an operator for an account." })
        }
        yield* requireStrongPassword(input.password, [input.email, input.displayName])
        yield* throttleMail(input.email)
        // hashed whatever the email: a taken one answers in the same time
        const passwordHash = yield* hashPassword(input.password)
        const at = yield* now
        const mailOf = Effect.gen(function*() {
          let existing = yield* repo.byEmail(input.email)
          if (Option.isSome(existing) && existing.value.verified) return alreadyRegisteredMail(input.email)
          if (settings.signUp === "invitation" && !(yield* repo.invited(input.email, at))) return invitationOnlyMail(input.email)
          if (Option.isNone(existing)) {
            const id = yield* ids.next
            if (yield* repo.insertAccount({ id, email: input.email, displayName: input.displayName, passwordHash, at })) {
              yield* audit.record({
                workspaceId: null,
                actorAccountId: id,
                action: "account.signed_up",
                target: { type: "account", id },
                details: { signUp: settings.signUp }
              })
              return verificationMail(input.email, yield* issue(id, "EMAIL_VERIFICATION", settings.emailVerificationTtlHours * 3600_000, at))
            }
            // a concurrent sign-up of the same email committed first
            existing = yield* repo.byEmail(input.email)
            if (Option.isNone(existing) || existing.value.verified) return alreadyRegisteredMail(input.email)
          }
          // signing up again before verifying: the latest password and name win, and a new link kills the old ones
          const id = existing.value.id
          yield* repo.updateUnverified({ id, displayName: input.displayName, passwordHash })
          return verificationMail(input.email, yield* issue(id, "EMAIL_VERIFICATION", settings.emailVerificationTtlHours * 3600_000, at))
        })
        yield* sendAfterCommit(yield* mailOf)
        return { accepted: true as const }
      })

    /** Accounts_VerifyEmail: activates the token's account. Fails with `TokenInvalid` (400). */
    const verifyEmail = (token: string) =>
      Effect.gen(function*() {
        const at = yield* now
        const account = yield* consume(token, "EMAIL_VERIFICATION", at)
        const emailVerifiedAt = yield* repo.markVerified(account.account_id, at)
        yield* audit.record({
          workspaceId: null,
          actorAccountId: account.account_id,
          action: "account.email_verified",
          target: { type: "account", id: account.account_id }
        })
        return { accountPublicId: account.account_id, emailVerifiedAt }
      })

    /**
     * Accounts_RequestPasswordReset: mails a reset link when an account has the email,
     * nothing otherwise; the same 202 either way. Fails with `MailThrottled` (429).
     */
    const requestPasswordReset = (email: string) =>
      Effect.gen(function*() {
        yield* throttleMail(email)
        const account = yield* repo.byEmail(email)
        if (Option.isSome(account)) {
          const at = yield* now
          const token = yield* issue(account.value.id, "PASSWORD_RESET", settings.passwordResetTtlMinutes * 60_000, at)
          yield* sendAfterCommit(resetMail(email, token))
        }
        return { accepted: true as const }
      })

    /**
     * Accounts_CompletePasswordReset: sets the new password, revokes every session of the
     * account and marks its email verified (the mail proved it). Fails with `TokenInvalid`
     * (400) or `InvalidRequest` (400 `password`: too weak; the token stays usable).
     */
    const completePasswordReset = (input: { readonly token: string; readonly password: string }) =>
      Effect.gen(function*() {
        const at = yield* now
        // a typed failure below rolls the token's use back (one transaction)
        const account = yield* consume(input.token, "PASSWORD_RESET", at)
        yield* requireStrongPassword(input.password, [account.email, account.display_name])
        yield* repo.setPassword(account.account_id, yield* hashPassword(input.password))
        yield* repo.markVerified(account.account_id, at)
        const sessionsRevoked = yield* repo.revokeSessions(account.account_id, at)
        yield* audit.record({
          workspaceId: null,
          actorAccountId: account.account_id,
          action: "account.password_reset",
          target: { type: "account", id: account.account_id },
          details: { sessionsRevoked }
        })
        return { accountPublicId: account.account_id, sessionsRevoked }
      })

    return { signUp, verifyEmail, requestPasswordReset, completePasswordReset }
  }),
  dependencies: [SignUpRepo.Default]
}) {}
