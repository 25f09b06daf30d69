/**
 * The job board in Chromium against a server on the embedded or PostgreSQL database, over the demo's
 * partner jobs and OPEN bounty: reached from the header, searched by keyboard only, sorted by
 * deadline, narrowed by its source and a skill, paged with "More jobs", a partner job opened
 * (reward, deadline, the partner's link), the bounty's acceptance criteria read after signing in
 * from its page. No console error or CSP refusal; axe finds no serious or critical violation on
 * the board and on a job.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoWorkBounties } from "../../demo/jobs/bounties/seed.js"
import { DemoJobSources, DemoPartnerJobs } from "../../demo/jobs/partnerJobs/seed.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { browser, openPage, origin, seriousViolations, step } from "./support.js"

const server = makeTestServer({}, { edge: true })

/** The `textContent` of every job card's `selector`, in order. */
const cardTexts = (page: import("playwright-core").Page, selector: string) =>
  Effect.promise(() => page.locator(".results .card.job").evaluateAll((cards, s) => cards.map((c) => c.querySelector(s)?.textContent ?? ""), selector))

layer(server.layer, { timeout: 180_000 })("the job board in Chromium", (it) => {
  it.scoped("search jobs by keyboard, filter, open a partner job and a bounty; CSP-clean, axe-clean", () =>
    Effect.gen(function*() {
      // the session cookie's `expires` is read on the browser's clock: the server's is brought to the present
      server.clock.advance(Date.now() - TestEpoch.getTime())
      const base = yield* origin
      const b = yield* browser
      const { page, messages } = yield* openPage(b)

      // the header's Jobs link, followed in the page
      yield* Effect.promise(() => page.goto(`${base}/`))
      yield* step(page, "header", Effect.promise(() => page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Jobs" }).click()))
      yield* step(page, "board", Effect.promise(() => page.getByRole("heading", { level: 1, name: "Find a job" }).waitFor()))
      expect(page.url()).toBe(`${base}/jobs`)
      yield* Effect.promise(() => page.locator(".results .card.job").first().waitFor())
      const all = yield* cardTexts(page, "h2")
      expect(all).toEqual(expect.arrayContaining([DemoPartnerJobs.research.title, DemoPartnerJobs.translation.title, DemoWorkBounties.open.title]))
      expect(all).not.toContain(DemoPartnerJobs.paused.title)
      expect(yield* seriousViolations(page)).toEqual([])

      // keyboard only: Tab to the search box, type, Enter
      for (let i = 0; i < 15; i++) {
        if (yield* Effect.promise(() => page.evaluate("document.activeElement?.id === 'job-q'"))) break
        yield* Effect.promise(() => page.keyboard.press("Tab"))
      }
      expect(yield* Effect.promise(() => page.evaluate("document.activeElement?.id"))).toBe("job-q")
      yield* Effect.promise(() => page.keyboard.type("research brief"))
      yield* Effect.promise(() => page.keyboard.press("Enter"))
      yield* step(page, "search", Effect.promise(() => page.waitForURL(/\/jobs\?q=research\+brief$/)))
      yield* step(page, "search-result", Effect.promise(() => page.locator(".results .card.job h2", { hasText: DemoPartnerJobs.research.title }).waitFor()))
      expect((yield* cardTexts(page, "h2"))[0]).toBe(DemoPartnerJobs.research.title)
      expect((yield* cardTexts(page, ".source"))[0]).toBe(`Partner job from ${DemoJobSources.active.code}`)

      // the sort: soonest deadline first (the bounty's, 2030-01-01)
      yield* Effect.promise(() => page.goto(`${base}/jobs`))
      yield* Effect.promise(() => page.getByLabel("Sort").selectOption("deadline"))
      yield* step(page, "sort", Effect.promise(() => page.waitForURL(/\/jobs\?sort=deadline$/)))
      yield* Effect.promise(() => page.locator(".results .card.job").first().waitFor())
      expect((yield* cardTexts(page, "h2"))[0]).toBe(DemoWorkBounties.open.title)

      // filters: partner jobs only (the checkbox by keyboard), then a skill from the filter form
      yield* Effect.promise(() => page.goto(`${base}/jobs`))
      const partner = page.getByRole("checkbox", { name: "Partner jobs" })
      yield* step(page, "kind", Effect.promise(() => partner.focus()))
      yield* Effect.promise(() => page.keyboard.press("Space"))
      yield* step(page, "kind-applied", Effect.promise(() => page.waitForURL(/kinds=PARTNER/)))
      yield* Effect.promise(() => page.locator(".results .card.job").first().waitFor())
      const sources = yield* cardTexts(page, ".source")
      expect(sources.length).toBe(4)
      for (const source of sources) expect(source).toMatch(/^Partner job from /)
      yield* Effect.promise(() => page.getByLabel("Skills (comma-separated)").fill("translation"))
      yield* Effect.promise(() => page.getByRole("button", { name: "Apply filters" }).click())
      yield* step(page, "skill-applied", Effect.promise(() => page.waitForURL(/skills=translation/)))
      yield* Effect.promise(() => page.locator(".results .card.job").first().waitFor())
      expect(yield* cardTexts(page, "h2")).toEqual([DemoPartnerJobs.translation.title])
      expect(page.url()).toMatch(/kinds=PARTNER/)

      // a partner job: its reward in units of the asset, no deadline, the partner's page
      yield* Effect.promise(() => page.getByRole("link", { name: DemoPartnerJobs.translation.title }).click())
      yield* step(page, "job", Effect.promise(() => page.getByRole("heading", { level: 1, name: DemoPartnerJobs.translation.title }).waitFor()))
      expect(page.url()).toBe(`${base}/jobs/${DemoPartnerJobs.translation.id}`)
      expect(yield* Effect.promise(() => page.locator(".reward").innerText())).toBe("30000000 USDC units on eip155:8453")
      yield* Effect.promise(() => page.getByText(DemoPartnerJobs.translation.description).waitFor())
      const apply = page.locator("a.source-link")
      expect(yield* Effect.promise(() => apply.getAttribute("href"))).toBe("https://partners.gigboard.example/jobs/gb-1043")
      expect(yield* seriousViolations(page)).toEqual([])

      // a bounty: its acceptance criteria after signing in from its page
      yield* Effect.promise(() => page.goto(`${base}/jobs/${DemoWorkBounties.open.id}`))
      yield* step(page, "bounty", Effect.promise(() => page.getByRole("heading", { level: 1, name: DemoWorkBounties.open.title }).waitFor()))
      expect(yield* Effect.promise(() => page.locator(".source").innerText())).toBe("Bounty")
      yield* step(page, "bounty-sign-in", Effect.promise(() => page.getByRole("main").getByRole("link", { name: "Sign in" }).click()))
      yield* Effect.promise(() => page.getByLabel("Email").fill(DemoAccounts.owner.email))
      yield* Effect.promise(() => page.getByLabel("Password").fill(DemoAccounts.owner.password))
      yield* Effect.promise(() => page.keyboard.press("Enter"))
      yield* step(page, "bounty-back", Effect.promise(() => page.waitForURL(`${base}/jobs/${DemoWorkBounties.open.id}`)))
      yield* step(page, "criteria", Effect.promise(() => page.locator(".criteria", { hasText: "passes the checks listed in the brief" }).waitFor()))

      // more than a page (20): "More jobs" follows the signed cursor
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO partner_jobs ${
        sql.insert(Array.from({ length: 23 }, (_, i) => ({
          id: `0000b0b0-0000-7000-8000-${(i + 1).toString(16).padStart(12, "0")}`,
          source_id: DemoJobSources.active.id,
          external_id: `bulk-${i + 1}`,
          title: `Bulk task ${i + 1}`,
          url: `https://partners.gigboard.example/jobs/bulk-${i + 1}`,
          description: null,
          posted_at: new Date(Date.UTC(2026, 4, 1, 0, i)),
          closes_at: null,
          skills: "{bulk}",
          protocols: "{}",
          reward_units: null,
          reward_asset: null,
          reward_network: null,
          first_seen_at: new Date(Date.UTC(2026, 4, 1, 0, i)),
          last_seen_at: new Date(Date.UTC(2026, 4, 2)),
          withdrawn_at: null
        })))
      }`
      yield* Effect.promise(() => page.goto(`${base}/jobs?skills=bulk`))
      yield* step(page, "page-one", Effect.promise(() => page.locator(".results .card.job").nth(19).waitFor()))
      expect(yield* Effect.promise(() => page.locator(".results .card.job").count())).toBe(20)
      yield* Effect.promise(() => page.getByRole("button", { name: "More jobs" }).click())
      yield* step(page, "page-two", Effect.promise(() => page.locator(".results .card.job").nth(22).waitFor()))
      const titles = yield* cardTexts(page, "h2")
      expect(titles).toEqual(Array.from({ length: 23 }, (_, i) => `Bulk task ${23 - i}`))
      expect(yield* Effect.promise(() => page.getByRole("button", { name: "More jobs" }).count())).toBe(0)

      // an unknown job
      yield* Effect.promise(() => page.goto(`${base}/jobs/00000000-0000-7000-8000-000000000000`))
      yield* step(page, "unknown", Effect.promise(() => page.getByRole("heading", { level: 1, name: "Job not found" }).waitFor()))

      expect(messages.filter((m) => /^pageerror|Refused/.test(m) || (/^error/.test(m) && !/status of 404/.test(m)))).toEqual([])
    }), 240_000)
})
