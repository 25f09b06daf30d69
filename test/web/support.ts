/**
 * The web directory in a real browser: Debian's Chromium (`/usr/bin/chromium`, `CHROMIUM_PATH`
 * to use another) driven by `playwright-core`, headless, with the flags that keep it off the
 * network; axe-core run in the page; a screenshot of the page written to `test-results/web/`
 * when a step fails.
 */
import { HttpServer } from "@effect/platform"
import axe from "axe-core"
import { Effect } from "effect"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"

/** The test server's origin (`http://127.0.0.1:<port>`), where the browser goes. */
export const origin = Effect.map(HttpServer.HttpServer, (s) => {
  const address = s.address
  if (address._tag !== "TcpAddress") throw new Error("the test server listens on TCP")
  return `http://127.0.0.1:${address.port}`
})

export const chromiumPath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"

/** A headless Chromium for the scope. */
export const browser = Effect.acquireRelease(
  Effect.promise(() =>
    chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    })
  ),
  (b: Browser) => Effect.promise(() => b.close())
)

/** A new page of `b`, with every console message and page error it logs collected in `messages`. */
export const openPage = (b: Browser) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const page = await b.newPage()
      const messages: Array<string> = []
      page.on("console", (m) => void messages.push(`${m.type()}: ${m.text()}`))
      page.on("pageerror", (e) => void messages.push(`pageerror: ${e.message}`))
      return { page, messages }
    }),
    ({ page }) => Effect.promise(() => page.close())
  )

/** Runs `step` on `page`; if it fails, writes a screenshot named `name` first. */
export const step = <A, E, R>(page: Page, name: string, effect: Effect.Effect<A, E, R>) =>
  Effect.tapErrorCause(effect, () =>
    Effect.promise(async () => {
      const dir = join("test-results", "web")
      mkdirSync(dir, { recursive: true })
      await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true }).catch(() => undefined)
    }))

/** The axe-core violations of impact serious or critical on the page as it is (rule ids with their targets). */
export const seriousViolations = (page: Page) =>
  Effect.promise(async () => {
    // evaluated through the DevTools protocol, which the page's CSP does not govern
    await page.evaluate(axe.source)
    const result = await page.evaluate("axe.run(document)") as axe.AxeResults
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
  })
