/**
 * A newcomer in Chromium joins from the header, confirms the address from the link the service
 * mailed (a real SMTP server in the test process), signs in, creates a workspace and an API key
 * whose secret is shown once; axe finds no serious violation on the join and workspace pages.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SmtpInbox } from "../support/smtp.js"
import { makeMailTestServer, TestEpoch } from "../support/TestServer.js"
import { browser, openPage, origin, seriousViolations, step } from "./support.js"

const server = makeMailTestServer({}, { edge: true })

layer(server.layer, { timeout: 180_000 })("joining in Chromium", (it) => {
  it.scoped("join, confirm from the mail, sign in, create a workspace and an API key", () =>
    Effect.gen(function*() {
      // the browser keeps the session cookie until its `expires`, on the browser's clock
      server.clock.advance(Date.now() - TestEpoch.getTime())
      const base = yield* origin
      const inbox = yield* SmtpInbox
      const b = yield* browser
      const { page, messages } = yield* openPage(b)
      const email = "wren@example.com"
      const password = "plum-kettle-harbor-41"

      yield* Effect.promise(() => page.goto(`${base}/`))
      yield* step(page, "home", Effect.promise(() => page.getByRole("link", { name: "Join" }).click()))
      yield* step(page, "join", Effect.promise(() => page.getByRole("heading", { level: 1, name: "Join the directory" }).waitFor()))
      expect(yield* seriousViolations(page)).toEqual([])
      yield* Effect.promise(() => page.getByLabel("Email").fill(email))
      yield* Effect.promise(() => page.getByLabel("Display name").fill("Wren"))
      yield* Effect.promise(() => page.getByLabel(/^Password/).fill(password))
      yield* Effect.promise(() => page.getByRole("button", { name: "Join" }).click())
      yield* step(page, "joined", Effect.promise(() => page.getByRole("heading", { name: "Check your mail" }).waitFor()))

      // the mailed link, on this server
      const mail = yield* inbox.waitFor(email, { subject: /verify/i })
      const link = mail.links.find((l) => l.includes("/verify-email#token="))
      expect(link, mail.links.join(", ")).toBeDefined()
      const url = new URL(link!)
      yield* Effect.promise(() => page.goto(`${base}${url.pathname}${url.hash}`))
      yield* step(page, "verified", Effect.promise(() => page.getByText("Your address is confirmed").waitFor()))
      expect(page.url()).toBe(`${base}/verify-email`)
      yield* Effect.promise(() => page.getByRole("link", { name: "Sign in" }).last().click())
      yield* Effect.promise(() => page.getByLabel("Email").fill(email))
      yield* Effect.promise(() => page.getByLabel("Password").fill(password))
      yield* Effect.promise(() => page.getByRole("button", { name: "Sign in" }).click())

      // a workspace of one's own, and a key shown once
      yield* step(page, "workspaces", Effect.promise(() => page.getByRole("heading", { level: 1, name: "My workspaces" }).waitFor()))
      yield* Effect.promise(() => page.getByLabel("Name").fill("Field Lab"))
      yield* Effect.promise(() => page.getByRole("button", { name: "Create workspace" }).click())
      yield* step(page, "workspace", Effect.promise(() => page.getByRole("heading", { level: 1, name: "Field Lab" }).waitFor()))
      yield* Effect.promise(() => page.getByRole("cell", { name: email }).waitFor())
      yield* Effect.promise(() => page.getByLabel("New key's name").fill("ci reader"))
      yield* Effect.promise(() => page.getByRole("button", { name: "Create key" }).click())
      const shown = page.locator(".shown-once code")
      yield* step(page, "key", Effect.promise(() => shown.waitFor()))
      const key = yield* Effect.promise(() => shown.innerText())
      expect(key).toMatch(/^adk_/)
      expect(yield* seriousViolations(page)).toEqual([])
      // the key works against the API
      const reply = yield* Effect.promise(() => fetch(`${base}/api/v1/agents?limit=1`, { headers: { "x-api-key": key } }))
      expect(reply.status).toBe(200)
      expect(messages.filter((m) => /^error|pageerror|Refused/.test(m))).toEqual([])
    }), 240_000)
})
