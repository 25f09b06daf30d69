/**
 * Security headers: `X-Content-Type-Options: nosniff` on every
 * response (operations, problems, early refusals, `/`, `/docs`, `/openapi.json`, and the
 * edge cache's answers that bypass the pipeline); `/docs` under a Content-Security-Policy
 * of its own origin with `frame-ancestors 'none'` and a Referrer-Policy, and still
 * working under it: the page references only same-origin resources and runs no inline
 * script, and the script it loads gives Scalar's run-time styles the policy's nonce.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAgents } from "../../demo/agents/seed.js"
import { call, type Reply } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const nosniff = (reply: Reply, what: string) => expect(reply.headers["x-content-type-options"], what).toBe("nosniff")

/** The directives of a Content-Security-Policy, by name. */
const directives = (policy: string) =>
  new Map(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]))

const server = makeTestServer({}, { edge: true })

layer(server.layer)("security headers", (it) => {
  it.effect("nosniff on every kind of response", () =>
    Effect.gen(function*() {
      const big = "x".repeat(2 * 1024 * 1024)
      const replies: Array<[string, Reply]> = [
        ["an operation", yield* call("GET", `/api/v1/agents/${DemoAgents[0].id}`)],
        ["a 404 problem", yield* call("GET", `/api/v1/agents/01900006-0000-7000-8000-0000000000ff`)],
        ["no such operation", yield* call("GET", "/api/v1/nothing-here")],
        ["a 400 decode problem", yield* call("GET", "/api/v1/agents/not-a-uuid")],
        ["a 401", yield* call("GET", "/api/v1/me")],
        ["an early refusal (body too large)", yield* call("POST", "/api/v1/agents", { raw: big })],
        ["a preflight", yield* call("GET", "/api/v1/agents", { headers: { origin: "https://elsewhere.example" } })],
        ["/", yield* call("GET", "/")],
        ["/openapi.json", yield* call("GET", "/openapi.json")],
        ["/docs", yield* call("GET", "/docs")],
        ["/docs/scalar.js", yield* call("GET", "/docs/scalar.js")]
      ]
      for (const [what, reply] of replies) nosniff(reply, what)
      // a public-catalog read answered twice: the second from the edge cache, outside the pipeline
      const first = yield* call("GET", "/api/v1/protocols")
      const second = yield* call("GET", "/api/v1/protocols")
      expect(second.status).toBe(200)
      nosniff(first, "protocols")
      nosniff(second, "protocols from the edge cache")
      const revalidated = yield* call("GET", "/api/v1/protocols", { headers: { "if-none-match": second.headers["etag"]! } })
      expect(revalidated.status).toBe(304)
      nosniff(revalidated, "a 304 from the edge cache")
    }))

  it.effect("/docs: a CSP of its own origin, frame-ancestors 'none', no 'unsafe-inline', and a Referrer-Policy", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/docs")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^text\/html/)
      expect(reply.headers["referrer-policy"]).toBe("no-referrer")
      const policy = reply.headers["content-security-policy"]!
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/)
      const d = directives(policy)
      expect(d.get("default-src")).toEqual(["'none'"])
      expect(d.get("script-src")).toEqual(["'self'"])
      expect(d.get("connect-src")).toEqual(["'self'"])
      expect(d.get("frame-ancestors")).toEqual(["'none'"])
      const styles = d.get("style-src")!
      expect(styles[0]).toBe("'self'")
      const nonce = /^'nonce-([A-Za-z0-9+/=]{24})'$/.exec(styles[1]!)![1]!
      // a fresh nonce per page
      const again = yield* call("GET", "/docs")
      expect(again.headers["content-security-policy"]).not.toContain(nonce)
      // the page: every script is a data block or a same-origin file carrying the nonce; nothing else is loaded
      const html = reply.text
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      expect(scripts.length).toBe(2)
      const [data, code] = scripts
      expect(data![1]).toMatch(/type="application\/json"/)
      expect(JSON.parse(data![2]!).info.title).toBe("Agent Directory API")
      const config = JSON.parse(/data-configuration="([^"]*)"/.exec(data![1]!)![1]!.replace(/&quot;/g, "\"").replace(/&amp;/g, "&"))
      expect(config).toMatchObject({ withDefaultFonts: false })
      expect(code![1]).toContain(`src="/docs/scalar.js"`)
      expect(code![1]).toContain(`nonce="${nonce}"`)
      expect(code![2]!.trim()).toBe("")
      expect(html).not.toMatch(/<(link|img|iframe|style)\b|\sstyle=|\son[a-z]+=/i)
      expect([...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1])).toEqual(["/docs/scalar.js"])
    }))

  it.effect("/docs/scalar.js: the Scalar bundle as JavaScript, first giving run-time <style> elements the page's nonce", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/docs/scalar.js")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toBe("text/javascript; charset=utf-8")
      expect(reply.text.length).toBeGreaterThan(1_000_000)
      // the shim runs first, and works: in a stand-in DOM, a created <style> gets the nonce of the loading script
      const shim = reply.text.slice(0, reply.text.indexOf("})();") + 5)
      class Element {
        nonce = ""
        constructor(readonly tagName: string) {}
      }
      class Document {
        currentScript = { nonce: "abc" }
        createElement(tagName: string) {
          return new Element(tagName)
        }
      }
      const document = new Document()
      new Function("document", "Document", shim)(document, Document)
      expect(document.createElement("style").nonce).toBe("abc")
      expect(document.createElement("STYLE").nonce).toBe("abc")
      expect(document.createElement("div").nonce).toBe("")
    }))
})
