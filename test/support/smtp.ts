/**
 * A real SMTP server in the test process (`smtp-server`), receiving what the service
 * sends through `layers/Mail.ts` over `SMTP_URL`; each message parsed with `mailparser`.
 * Tests read the links from the mail, as a person would.
 */
import { Context, Effect, Layer, Option, Ref } from "effect"
import { simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"
import type { AddressInfo } from "node:net"
import { waitFor } from "./waitFor.js"

/** One received message. */
export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
  /** The `http(s)://` links of the text, in order. */
  readonly links: ReadonlyArray<string>
}

/** The in-process SMTP server: its URL and what it received. */
export interface SmtpInboxShape {
  /** `smtp://127.0.0.1:<port>`: the `SMTP_URL` for the service under test. */
  readonly url: string
  /** Every message received so far, oldest first. */
  readonly all: Effect.Effect<ReadonlyArray<ReceivedMail>>
  /**
   * The first message to `to` (received after the `skip` earlier ones to that address)
   * matching `subject` when given; waits up to 10 s for it, else fails the test.
   */
  readonly waitFor: (to: string, options?: { readonly subject?: RegExp; readonly skip?: number }) => Effect.Effect<ReceivedMail>
}

/** The in-process SMTP server's tag. */
export class SmtpInbox extends Context.Tag("test/SmtpInbox")<SmtpInbox, SmtpInboxShape>() {}

const addresses = (value: unknown): Array<string> => {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value]
  return list.flatMap((a: { value?: ReadonlyArray<{ address?: string }> }) => (a.value ?? []).map((v) => (v.address ?? "").toLowerCase()))
}

/** Starts the server on a free port for the layer's lifetime. */
export const SmtpInboxLive = Layer.scoped(
  SmtpInbox,
  Effect.gen(function*() {
    const received = yield* Ref.make<ReadonlyArray<ReceivedMail>>([])
    const runtime = yield* Effect.runtime<never>()
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          const text = mail.text ?? ""
          const message: ReceivedMail = {
            from: addresses(mail.from)[0] ?? "",
            to: addresses(mail.to),
            subject: mail.subject ?? "",
            text,
            links: text.match(/https?:\/\/[^\s<>"]+/g) ?? []
          }
          Effect.runSync(Ref.update(received, (all) => [...all, message]).pipe(Effect.provide(runtime)))
          callback()
        }, (error: Error) => callback(error))
      }
    })
    const port = yield* Effect.async<number>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.server.address() as AddressInfo).port)))
    })
    yield* Effect.addFinalizer(() => Effect.async<void>((resume) => server.close(() => resume(Effect.void))))
    const find = (to: string, options: { readonly subject?: RegExp; readonly skip?: number }) =>
      Effect.map(Ref.get(received), (all) =>
        Option.fromNullable(
          all.filter((m) => m.to.includes(to.toLowerCase()) && (options.subject === undefined || options.subject.test(m.subject)))[
            options.skip ?? 0
          ]
        ))
    return {
      url: `smtp://127.0.0.1:${port}`,
      all: Ref.get(received),
      waitFor: (to, options = {}) =>
        waitFor(`a mail to ${to}`, Effect.map(find(to, options), Option.getOrUndefined), 10_000, 50)
    } satisfies SmtpInboxShape
  })
)
