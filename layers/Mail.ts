/**
 * Outgoing mail (sign-up verification, password reset, workspace invitations): one
 * `send` over SMTP with `nodemailer`.
 *
 * - `SMTP_URL` set: the message goes to that server (`smtp://` or `smtps://`, with
 *   credentials in the URL's user info). A refused or unreachable server fails the
 *   send with `DependencyUnavailable` (503 `dependency-unavailable`); the URL never
 *   reaches a log or a problem.
 * - No `SMTP_URL` in development (`DEPLOYMENT_ENV=development`): the message is
 *   written as an RFC 5322 file (`.eml`) to `MAIL_OUTBOX_DIR` (default `<DATA_DIR>/mail`, or
 *   `./.data/mail` when the data directory is in memory) and logged with its text, so
 *   a developer can follow the links without a mail server.
 * - No `SMTP_URL` elsewhere: every send fails with `DependencyUnavailable`, and
 *   start-up logs a warning: links carry secrets, which never go to a production log.
 *
 * Messages are plain text; the sender is `MAIL_FROM`.
 */
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import nodemailer from "nodemailer"
import { DependencyUnavailable, MailThrottled } from "../schema/errors.js"
import { RateBudget } from "./RateBudget.js"
import { currentRequest } from "./RequestContext.js"
import { AppConfig } from "./AppConfig.js"
import { now } from "./Clock.js"
import { Ids } from "./Ids.js"

/** One plain-text message. */
export interface MailMessage {
  /** The recipient's address. */
  readonly to: string
  readonly subject: string
  /** The body, plain text (links on lines of their own). */
  readonly text: string
}

/** Mail settings (part of `AppConfig`): `SMTP_URL`, `MAIL_FROM`, `MAIL_OUTBOX_DIR`. */
export interface MailOptions {
  /** The SMTP server (`smtp://user:password@host:587`); none → the development outbox. */
  readonly smtpUrl: Option.Option<Redacted.Redacted>
  /** The `From` address (`MAIL_FROM`, default `Agent Directory <no-reply@localhost>`). */
  readonly from: string
  /** Where the development outbox writes `.eml` files (`MAIL_OUTBOX_DIR`). */
  readonly outboxDir: string
}

/** The mail service. */
export interface MailShape {
  /** Sends one message. Fails with `DependencyUnavailable` when it cannot be handed to the server. */
  readonly send: (message: MailMessage) => Effect.Effect<void, DependencyUnavailable>
}

/** The mail service's tag. */
export class Mail extends Context.Tag("agent-directory/Mail")<Mail, MailShape>() {}

const unavailable = () =>
  new DependencyUnavailable({ detail: "The mail server is unavailable; retry later.", retryAfter: 30 })

/**
 * Charges one mail to its recipient's budget and to the asking client's
 * (`AppConfig.budgets.mailRecipient`, `mailClient`; the client address of the current
 * request). Call it before doing the work that sends the mail, whatever that mail is
 * (a sign-up of a taken email charges as a new one does: no enumeration). Fails with
 * `MailThrottled` (429, `Retry-After`) when either budget is spent.
 */
export const throttleMail = (recipient: string): Effect.Effect<void, MailThrottled, AppConfig | RateBudget> =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const budgets = yield* RateBudget
    const { clientAddress } = yield* currentRequest
    const charges = yield* Effect.all([
      budgets.charge({ name: "mail-recipient", subject: recipient.trim().toLowerCase(), budget: config.budgets.mailRecipient, cost: 1 }),
      budgets.charge({ name: "mail-client", subject: clientAddress, budget: config.budgets.mailClient, cost: 1 })
    ])
    const waits = charges.flatMap((c) => Option.isSome(c) && c.value.retryAfterSeconds !== undefined ? [c.value.retryAfterSeconds] : [])
    if (waits.length > 0) {
      return yield* new MailThrottled({ detail: "Too many mails were asked for; retry later.", retryAfter: Math.max(...waits) })
    }
  })

/** The mail service of `AppConfig.mail`. Requires `AppConfig`, `Ids` (outbox file names). */
export const MailLive = Layer.scoped(
  Mail,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const ids = yield* Ids
    const { from, outboxDir, smtpUrl } = config.mail
    if (Option.isSome(smtpUrl)) {
      const transport = nodemailer.createTransport(Redacted.value(smtpUrl.value))
      yield* Effect.addFinalizer(() => Effect.sync(() => transport.close()))
      return {
        send: (message) =>
          Effect.tryPromise({
            try: () => transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text }),
            catch: (error) => error
          }).pipe(
            Effect.asVoid,
            Effect.tapError((error) =>
              Effect.logWarning("sending mail failed", { reason: error instanceof Error ? error.name : "unknown" })
            ),
            Effect.mapError(unavailable)
          )
      } satisfies MailShape
    }
    if (config.environment !== "development") {
      yield* Effect.logWarning("SMTP_URL is not set: mail (verification, password reset, invitations) cannot be sent")
      return { send: () => Effect.fail(unavailable()) } satisfies MailShape
    }
    // development: the message as a file, built by nodemailer's stream transport
    const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" })
    return {
      send: (message) =>
        Effect.gen(function*() {
          const at = yield* now
          const name = `${at.toISOString().replace(/[:.]/g, "-")}-${yield* ids.next}.eml`
          const built = yield* Effect.tryPromise(() =>
            writer.sendMail({ from, to: message.to, subject: message.subject, text: message.text })
          )
          yield* Effect.tryPromise(async () => {
            await mkdir(outboxDir, { recursive: true })
            await writeFile(join(outboxDir, name), built.message as Buffer)
          })
          yield* Effect.logInfo(`mail to ${message.to}: ${message.subject} (${join(outboxDir, name)})\n${message.text}`)
        }).pipe(Effect.mapError(unavailable))
    } satisfies MailShape
  })
)
