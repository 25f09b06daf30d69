/**
 * An agent's page in Chromium against a server on the embedded or PostgreSQL database, for the
 * demo's Atlas Research (its succeeded chat run moved into the last 30 days): rank and performance
 * with their components and methodology links, tools with their tool-safety findings, the
 * published offer with its price in effect and its Buy link, the proven wallet relation, the last
 * 30 days' statistics as an SVG chart with its title, description and table; signed in as a member
 * of its workspace, every runtime tool. No console error or CSP refusal; axe finds no serious or
 * critical violation. The first render (the heading) and the full render (every section read) are
 * printed, not asserted.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoRuns, DemoRuntimeTools } from "../../demo/runtime/data.js"
import { DemoOffers } from "../../demo/services/seed.js"
import { DemoFindings } from "../../demo/trust/seed.js"
import { DemoAgentRelations } from "../../demo/wallets/agentRelations.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { browser, openPage, origin, seriousViolations, step } from "./support.js"

const server = makeTestServer({}, { edge: true })
const atlas = DemoAgents[0]

layer(server.layer, { timeout: 180_000 })("an agent's page in Chromium", (it) => {
  it.scoped("rank, performance, tools with findings, priced offers with Buy, wallets, a daily chart; axe-clean", () =>
    Effect.gen(function*() {
      // the demo's succeeded chat run of Atlas, moved into the chart's 30 days (the test clock's)
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE runs SET started_at = '2026-05-30T10:00:00Z', completed_at = '2026-05-30T10:01:00Z'
                 WHERE id = ${DemoRuns[2].id} AND state = 'SUCCEEDED' AND NOT is_playground`
      const base = yield* origin
      const b = yield* browser
      const { page, messages } = yield* openPage(b)
      // the shell and its assets cached first, as a returning visitor has them
      yield* Effect.promise(() => page.goto(`${base}/`))
      yield* Effect.promise(() => page.getByRole("heading", { level: 1, name: "Find an agent" }).waitFor())

      const started = Date.now()
      yield* Effect.promise(() => page.goto(`${base}/agents/${atlas.id}`))
      yield* step(page, "agent", Effect.promise(() => page.getByRole("heading", { level: 1, name: atlas.name }).waitFor()))
      const firstRenderMs = Date.now() - started
      const section = (name: string) => page.getByRole("region", { name })

      // rank and performance, each with its components and a link to how it is computed
      const rank = section("Rank and performance")
      yield* step(page, "rank", Effect.promise(() => rank.getByRole("table", { name: "Rank components" }).waitFor()))
      expect(yield* Effect.promise(() => rank.locator(".score").first().innerText())).toContain(`#${atlas.rank}`)
      expect(yield* Effect.promise(() => rank.getByRole("table", { name: "Rank components" }).getByRole("rowheader").allInnerTexts()))
        .toEqual(["Trust", "Performance", "Proofs", "Stars"])
      yield* Effect.promise(() => rank.getByText(/^Performance /).first().waitFor())
      const methodology = yield* Effect.promise(() => page.getByRole("link", { name: /^How the (trust|rank|performance) is computed$/ }).evaluateAll((links) =>
        links.map((l) => l.getAttribute("href"))))
      expect(methodology).toEqual(expect.arrayContaining([
        "/docs#tag/trust/GET/api/v1/agents/{entityPublicId}/trust",
        "/docs#tag/trust/GET/api/v1/agents/{entityPublicId}/rank",
        "/docs#tag/trust/GET/api/v1/agents/{entityPublicId}/performance"
      ]))

      // the daily statistics: an SVG labelled by its title and description, and the figures' table
      const stats = section("Daily statistics")
      const chart = stats.getByRole("img", { name: /^Runs per day, last 30 days/ })
      yield* step(page, "chart", Effect.promise(() => chart.waitFor()))
      expect(yield* Effect.promise(() => chart.evaluate((svg) => [svg.querySelector("title")?.textContent, svg.querySelector("desc")?.textContent])))
        .toEqual([
          "Runs per day, last 30 days (UTC)",
          "1 run started from 2026-05-03 to 2026-06-01: 1 succeeded, 0 failed, 0 other; the busiest day was 2026-05-30."
        ])
      expect(yield* Effect.promise(() => chart.locator("rect.s-ok").count())).toBe(1)
      yield* Effect.promise(() => stats.getByText(/the figures as a table$/).click())
      const days = yield* Effect.promise(() => stats.getByRole("table").locator("tbody tr th").allInnerTexts())
      expect(days.length).toBe(30)
      expect([days[0], days[29]]).toEqual(["2026-05-03", "2026-06-01"])
      const may30 = yield* Effect.promise(() => stats.getByRole("row", { name: /^2026-05-30 / }).locator("td").allInnerTexts())
      expect(may30.slice(0, 3)).toEqual(["1", "0", "0"])

      // tools with their findings: the MCP tool and the endpoint the findings name
      const tools = section("Tools and their safety")
      yield* step(page, "tools", Effect.promise(() => tools.getByText(DemoFindings.filesConceal.subject, { exact: true }).waitFor()))
      expect(yield* Effect.promise(() => tools.locator(".tools > li").filter({ hasText: DemoFindings.filesConceal.subject }).innerText()))
        .toContain(`${DemoFindings.filesConceal.severity} ${DemoFindings.filesConceal.kind}`)

      // the published offer, its price in effect (integer units), its Buy link (the buy page's route)
      const offers = section("Offers")
      const offer = offers.locator(".offer").filter({ hasText: DemoOffers.published.title })
      yield* step(page, "offers", Effect.promise(() => offer.waitFor()))
      expect(yield* Effect.promise(() => offers.locator(".offer").count())).toBe(1)
      expect(yield* Effect.promise(() => offer.locator(".prices li").innerText())).toMatch(/^10000000 units of asset [0-9a-f]{8}… on \S/)
      const buy = offer.getByRole("link", { name: `Buy ${DemoOffers.published.title}` })
      expect(yield* Effect.promise(() => buy.getAttribute("href"))).toBe(`/offers/${DemoOffers.published.id}/buy`)
      expect(yield* Effect.promise(() => buy.getAttribute("data-route"))).not.toBeNull()

      // the proven wallet relation
      const wallets = section("Wallets").getByRole("table", { name: /proven relation/ })
      yield* step(page, "wallets", Effect.promise(() => wallets.waitFor()))
      const row = yield* Effect.promise(() => wallets.locator("tbody tr").first().innerText())
      expect(row).toContain(DemoAgentRelations.atlasOwner.relation)
      expect(row.toLowerCase()).toContain(DemoAgentRelations.atlasOwner.address.toLowerCase())

      yield* Effect.promise(() => section("Recent activity").locator("ol, p").first().waitFor())
      const fullRenderMs = Date.now() - started
      expect(yield* seriousViolations(page)).toEqual([])

      // a member of the operating workspace sees every runtime tool, the findings beside the tool they name
      // (the session cookie's `expires` is read on the browser's clock: the server's is brought to the present)
      server.clock.advance(Date.now() - TestEpoch.getTime())
      yield* Effect.promise(() => page.goto(`${base}/sign-in?next=${encodeURIComponent(`/agents/${atlas.id}`)}`))
      yield* Effect.promise(() => page.getByLabel("Email").fill(DemoAccounts.owner.email))
      yield* Effect.promise(() => page.getByLabel("Password").fill(DemoAccounts.owner.password))
      yield* Effect.promise(() => page.keyboard.press("Enter"))
      yield* step(page, "signed-in", Effect.promise(() => page.waitForURL(`${base}/agents/${atlas.id}`)))
      const memberTools = section("Tools and their safety")
      yield* step(page, "runtime-tools", Effect.promise(() => memberTools.getByText(DemoRuntimeTools[0].stableName, { exact: true }).waitFor()))
      const listed = yield* Effect.promise(() => memberTools.locator(".tools > li > strong code").allInnerTexts())
      expect(listed).toEqual(expect.arrayContaining(["docs.search", "email.send", "web.fetch", DemoFindings.filesConceal.subject]))
      expect(yield* seriousViolations(page)).toEqual([])

      expect(messages.filter((m) => /^error|pageerror|Refused/.test(m))).toEqual([])
      console.log(`web agent page: first render ${firstRenderMs} ms, every section read ${fullRenderMs} ms (asserted after, so an upper bound)`)
    }), 240_000)
})
