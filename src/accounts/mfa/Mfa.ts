/**
 * The second factor of an account (ours; spec §5.2 "recent authentication or MFA"):
 *
 * - TOTP enrollment: a new secret, sealed at rest (layers/TokenCipher.ts, a key derived
 *   from `APP_SECRET`, bound to the account), PENDING until a code of it confirms it;
 *   confirming enables it and issues ten single-use recovery codes (stored as SHA-256).
 * - Sign-in: an account with TOTP enabled gets a half signed-in session (layers/Auth.ts)
 *   that Accounts_VerifyMfa completes with a TOTP code or a recovery code.
 * - Step-up: Accounts_VerifyMfa on a fully signed-in session makes its authentication
 *   recent again, so sensitive actions pass without a new password sign-in.
 *
 * A TOTP code is accepted within ±1 step and only for a step later than the last one used
 * (no replay). Every attempt is charged to the account's and the client address's budgets
 * (the sign-in budgets' sizes, `mfa-account` / `mfa-address`). Each change is audited
 * (`mfa.*`, no workspace).
 */
import { Effect, Option, Redacted } from "effect"
import { InvalidRequest } from "../../../schema/errors.js"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Audit } from "../../../layers/Audit.js"
import { tokenHash } from "../../../layers/Auth.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { RateBudget } from "../../../layers/RateBudget.js"
import { currentRequest } from "../../../layers/RequestContext.js"
import { makeTokenCipher, type TokenCipher } from "../../../layers/TokenCipher.js"
import { MfaAlreadyEnabled, MfaEnrollmentNotPending, MfaNotEnabled, MfaThrottled } from "./Errors.js"
import { MfaRepo, type TotpRow } from "./Repo.js"
import type { RecoveryCodes, TotpEnrollment } from "./Schemas.js"
import {
  isTotpCode,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  qrSvg,
  RecoveryCodeCount,
  totpUri,
  verifyTotp
} from "./Totp.js"

/** The cipher of TOTP secrets at rest, from the `mfaTotp` key of `AppConfig` (derived from `APP_SECRET`). */
export const totpSecretCipher = (key: Redacted.Redacted<Buffer>): TokenCipher => makeTokenCipher([{ kid: "app", key }])

/** Where a sealed TOTP secret belongs (the cipher's additional data): a copy on another account does not open. */
export const totpSecretAad = (accountId: string) => `mfa_totp.secret_sealed:${accountId}`

/** The SHA-256 a recovery code is stored as. */
export const recoveryCodeHash = (code: string) => tokenHash(normalizeRecoveryCode(code))

const wrongCode = (detail: string) =>
  new InvalidRequest({ detail, errors: [{ in: "body", pointer: "/code", detail: "is not a valid current code" }] })

/** The second factor. Requires `SqlClient`, `AppConfig`, `Ids`, `Audit`, `RateBudget`. */
export class Mfa extends Effect.Service<Mfa>()("agent-directory/Mfa", {
  effect: Effect.gen(function*() {
    const repo = yield* MfaRepo
    const config = yield* AppConfig
    const ids = yield* Ids
    const audit = yield* Audit
    const budgets = yield* RateBudget
    const cipher = totpSecretCipher(config.keys.mfaTotp)

    const openSecret = (accountId: string, row: TotpRow) =>
      Effect.try({ try: () => Redacted.value(cipher.open(row.secret_sealed, totpSecretAad(accountId))), catch: (e) => e }).pipe(
        Effect.orDieWith((e) => new Error(`the TOTP secret of account ${accountId} does not open`, { cause: e }))
      )

    const record = (accountId: string, action: string, details?: Readonly<Record<string, string | number | boolean | null>>) =>
      audit.record({ workspaceId: null, actorAccountId: accountId, action, target: { type: "account", id: accountId }, ...(details ? { details } : {}) })

    /** Charges one second-factor attempt to the account and to the client address; `MfaThrottled` when either is spent. */
    const throttle = (accountId: string) =>
      Effect.gen(function*() {
        const { clientAddress } = yield* currentRequest
        const charges = yield* Effect.all([
          budgets.charge({ name: "mfa-account", subject: accountId, budget: config.budgets.signInAccount, cost: 1 }),
          budgets.charge({ name: "mfa-address", subject: clientAddress, budget: config.budgets.signInAddress, cost: 1 })
        ])
        const waits = charges.flatMap((c) => Option.isSome(c) && c.value.retryAfterSeconds !== undefined ? [c.value.retryAfterSeconds] : [])
        if (waits.length > 0) {
          return yield* new MfaThrottled({ detail: "Too many second-factor attempts; retry later.", retryAfter: Math.max(...waits) })
        }
      })

    /** The account's ENABLED authenticator, or `MfaNotEnabled`. */
    const enabled = (accountId: string) =>
      Effect.flatMap(repo.totp(accountId), (row) =>
        Option.isSome(row) && row.value.state === "ENABLED"
          ? Effect.succeed(row.value)
          : Effect.fail(new MfaNotEnabled({ detail: "Your account has no confirmed authenticator." })))

    /**
     * Checks `code` against the account's authenticator: a TOTP code of a step not used
     * before (then recorded as used), or, when `recovery`, an unused recovery code (then
     * used up, audited `mfa.recovery_code_used`). Fails with `InvalidRequest` naming `/code`.
     */
    const check = (accountId: string, row: TotpRow, code: string, recovery: boolean) =>
      Effect.gen(function*() {
        const at = yield* now
        if (isTotpCode(code)) {
          const step = verifyTotp(yield* openSecret(accountId, row), code.trim(), at, row.last_time_step)
          if (step !== undefined && (yield* repo.useStep(accountId, step))) return "TOTP" as const
        } else if (recovery && (yield* repo.useCode(accountId, recoveryCodeHash(code), at))) {
          yield* record(accountId, "mfa.recovery_code_used", { recoveryCodesLeft: yield* repo.codesLeft(accountId) })
          return "RECOVERY_CODE" as const
        }
        return yield* wrongCode(
          recovery
            ? "The code is not a current code of your authenticator nor an unused recovery code."
            : "The code is not a current code of your authenticator."
        )
      })

    /** Ten new recovery codes replacing the account's; returns their plaintext (shown once). */
    const issueCodes = (accountId: string) =>
      Effect.gen(function*() {
        const plain = Array.from({ length: RecoveryCodeCount }, newRecoveryCode)
        const codes = yield* Effect.forEach(plain, (code) => Effect.map(ids.next, (id) => ({ id, hash: recoveryCodeHash(code) })))
        yield* repo.replaceCodes({ accountId, codes, at: yield* now })
        return plain
      })

    /**
     * Accounts_EnrollTotp: a new PENDING authenticator (replacing a pending one) and its
     * secret, URI and QR code, shown once. Fails with `MfaAlreadyEnabled`.
     */
    const enroll = (accountId: string) =>
      Effect.gen(function*() {
        const row = yield* repo.totp(accountId)
        if (Option.isSome(row) && row.value.state === "ENABLED") {
          return yield* new MfaAlreadyEnabled({ detail: "Your account already has a confirmed authenticator; disable it first." })
        }
        const secret = newTotpSecret()
        yield* repo.putPending({ accountId, sealed: cipher.seal(Redacted.make(secret), totpSecretAad(accountId)), at: yield* now })
        yield* record(accountId, "mfa.totp_enrolled")
        const uri = totpUri(secret, yield* repo.email(accountId))
        const enrollment: TotpEnrollment = { state: "PENDING", secret, otpauthUri: uri, qrSvg: yield* qrSvg(uri), delivery: "SHOWN_ONCE" }
        return enrollment
      })

    /**
     * Accounts_ConfirmTotp: a current code of the pending authenticator enables it and
     * issues ten recovery codes. Fails with `MfaEnrollmentNotPending`, `MfaThrottled`,
     * `InvalidRequest` (wrong code).
     */
    const confirm = (accountId: string, code: string) =>
      Effect.gen(function*() {
        yield* throttle(accountId)
        const row = yield* repo.totp(accountId)
        if (Option.isNone(row) || row.value.state !== "PENDING") {
          return yield* new MfaEnrollmentNotPending({ detail: "There is no pending TOTP enrollment; enroll first." })
        }
        yield* check(accountId, row.value, code, false)
        yield* repo.enable(accountId, yield* now)
        const recoveryCodes = yield* issueCodes(accountId)
        yield* record(accountId, "mfa.totp_enabled", { recoveryCodes: recoveryCodes.length })
        const result: RecoveryCodes = { state: "ENABLED", recoveryCodes, delivery: "SHOWN_ONCE" }
        return result
      })

    /**
     * Accounts_DisableTotp: a TOTP or recovery code removes the authenticator and the
     * recovery codes. Fails with `MfaNotEnabled`, `MfaThrottled`, `InvalidRequest`.
     */
    const disable = (accountId: string, code: string) =>
      Effect.gen(function*() {
        yield* throttle(accountId)
        const row = yield* enabled(accountId)
        const method = yield* check(accountId, row, code, true)
        yield* repo.remove(accountId)
        yield* record(accountId, "mfa.totp_disabled", { method })
        return { state: "DISABLED" as const }
      })

    /**
     * Accounts_RegenerateRecoveryCodes: a TOTP or recovery code replaces the recovery codes
     * by ten new ones. Fails with `MfaNotEnabled`, `MfaThrottled`, `InvalidRequest`.
     */
    const regenerate = (accountId: string, code: string) =>
      Effect.gen(function*() {
        yield* throttle(accountId)
        const row = yield* enabled(accountId)
        const method = yield* check(accountId, row, code, true)
        const recoveryCodes = yield* issueCodes(accountId)
        yield* record(accountId, "mfa.recovery_codes_regenerated", { method })
        const result: RecoveryCodes = { state: "ENABLED", recoveryCodes, delivery: "SHOWN_ONCE" }
        return result
      })

    /**
     * Accounts_VerifyMfa: a TOTP or recovery code completes a half signed-in session, or
     * (step-up) makes a signed-in session's authentication recent. Fails with
     * `MfaNotEnabled`, `MfaThrottled`, `InvalidRequest`.
     */
    const verify = (session: { readonly accountId: string; readonly sessionId: string }, code: string) =>
      Effect.gen(function*() {
        yield* throttle(session.accountId)
        const row = yield* enabled(session.accountId)
        const method = yield* check(session.accountId, row, code, true)
        const at = yield* now
        yield* repo.authenticateSession(session.sessionId, at)
        return { sessionId: session.sessionId, authenticatedAt: at, method, recoveryCodesLeft: yield* repo.codesLeft(session.accountId) }
      })

    return { enroll, confirm, disable, regenerate, verify }
  }),
  dependencies: [MfaRepo.Default]
}) {}
