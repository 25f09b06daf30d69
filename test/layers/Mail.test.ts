/** layers/Mail.ts: SMTP delivery, the development outbox, and no silent loss elsewhere. */
import { expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { IdsSequence } from "../../layers/Ids.js"
import { Mail, MailLive } from "../../layers/Mail.js"
import { SmtpInbox, SmtpInboxLive } from "../support/smtp.js"
import { testConfig, testConfigLayer } from "../support/config.js"

const mailLayer = (overrides: Parameters<typeof testConfig>[0]) =>
  MailLive.pipe(Layer.provide([testConfigLayer(overrides), IdsSequence()]))

/** Runs `body` with the mail service of `overrides` (its SMTP transport open throughout). */
const withMail = <A, E, R>(overrides: Parameters<typeof testConfig>[0], body: (mail: typeof Mail.Service) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Mail, body).pipe(Effect.provide(mailLayer(overrides)))

it.effect("delivers over SMTP: the recipient's server receives the subject, text and links", () =>
  Effect.gen(function*() {
    const inbox = yield* SmtpInbox
    yield* withMail({
      mail: { ...testConfig().mail, smtpUrl: Option.some(Redacted.make(inbox.url)) }
    }, (mail) => Effect.gen(function*() {
      yield* mail.send({ to: "Ada@Example.com", subject: "Verify your email", text: "Open\nhttps://directory.test/verify#token=abc\n" })
      const received = yield* inbox.waitFor("ada@example.com")
      expect(received.subject).toBe("Verify your email")
      expect(received.from).toBe("no-reply@directory.test")
      expect(received.links).toEqual(["https://directory.test/verify#token=abc"])
    }))
  }).pipe(Effect.provide(SmtpInboxLive)))

it.effect("an unreachable SMTP server fails the send with 503 dependency-unavailable, naming no URL", () =>
  Effect.gen(function*() {
    yield* withMail({
      mail: { ...testConfig().mail, smtpUrl: Option.some(Redacted.make("smtp://user:secret@127.0.0.1:1")) }
    }, (mail) => Effect.gen(function*() {
      const error = yield* Effect.flip(mail.send({ to: "a@example.com", subject: "s", text: "t" }))
      expect(error._tag).toBe("DependencyUnavailable")
      expect(error.detail).not.toContain("secret")
    }))
  }))

it.effect("development without SMTP_URL writes each message as an .eml file to the outbox", () =>
  Effect.gen(function*() {
    const outboxDir = mkdtempSync(join(tmpdir(), "mail-outbox-"))
    yield* withMail({ mail: { ...testConfig().mail, outboxDir } }, (mail) => Effect.gen(function*() {
      yield* mail.send({ to: "dev@example.com", subject: "Reset your password", text: "https://directory.test/reset#token=xyz" })
      const files = readdirSync(outboxDir)
      expect(files).toHaveLength(1)
      const eml = readFileSync(join(outboxDir, files[0]!), "utf8")
      expect(eml).toMatch(/^To: dev@example.com$/m)
      expect(eml).toMatch(/^Subject: Reset your password$/m)
      expect(eml).toContain("https://directory.test/reset#token=xyz")
    }))
  }))

it.effect("elsewhere without SMTP_URL every send fails with 503 (links carry secrets: never logged)", () =>
  Effect.gen(function*() {
    yield* withMail({ environment: "production" }, (mail) => Effect.gen(function*() {
      const error = yield* Effect.flip(mail.send({ to: "a@example.com", subject: "s", text: "t" }))
      expect(error._tag).toBe("DependencyUnavailable")
    }))
  }))
