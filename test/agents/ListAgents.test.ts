/** GET /api/v1/agents (Agents_ListAgents, spec §9): filters, text query, sorts, signed cursors. */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { AgentListItem } from "../../schema/agents.js"
import { Page } from "../../schema/envelope.js"
import { call, expectMeta, expectProblem } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { tamper } from "../support/cursor.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"

const path = "/api/v1/agents"
const server = makeTestServer()
const decodePage = Schema.decodeUnknownSync(Page(AgentListItem, 100), { onExcessProperty: "error" })
const apiKey = { "x-api-key": DemoApiKeys.public.key }

const slugs = (body: any): Array<string> => body.data.map((a: any) => a.canonicalSlug)
const slugsOf = (indexes: ReadonlyArray<number>) => indexes.map((i) => DemoAgents[i]!.slug)

/** Every page of `query` at `limit`, following nextCursor; fails the test on a non-200. */
const allPages = (query: string, limit: number, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const items: Array<any> = []
    let cursor: string | null = null
    let pages = 0
    do {
      const q: string = `${query}&limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
      const reply = yield* call("GET", `${path}?${q}`, { headers })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data.length).toBeLessThanOrEqual(limit)
      items.push(...reply.body.data)
      cursor = reply.body.nextCursor
      pages++
    } while (cursor !== null && pages < 20)
    return { items, pages }
  })

layer(server.layer)("Agents_ListAgents", (it) => {
  it.effect("lists every listed agent by rank (unranked last, ties by UUID) with exact item fields", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", path)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expect(Object.keys(reply.body).sort()).toEqual(["data", "meta", "nextCursor"])
      // the ranks are the reputation projection's: every listed agent is ranked
      expect(slugs(reply.body)).toEqual(slugsOf([0, 1, 2, 3, 5, 6, 7, 4]))
      expect(reply.body.nextCursor).toBeNull()
      expectMeta(reply)
      expect(() => decodePage(reply.body)).not.toThrow()
      expect(reply.body.data[0]).toEqual({
        publicId: DemoAgents[0].id,
        canonicalSlug: "atlas-research",
        name: "Atlas Research",
        rank: "1",
        tagline: "Deep research on demand",
        description: "Atlas Research: an agent of the demo directory.",
        starCount: "1520",
        verificationState: "VERIFIED",
        // the FUNDED address on base does not add a network; it is base through its registry token
        networks: ["base"],
        // a2a derived from its imported A2A Agent Card, the others declared
        protocols: ["a2a", "erc-8004", "mcp", "x402"]
      })
      const harbor = reply.body.data[6]
      expect(harbor.rank).toBe("7")
      expect(harbor.protocols).toEqual([])
    }))

  it.effect("sorts by name (case-insensitive A-Z) and by newest listed first", () =>
    Effect.gen(function*() {
      const byName = yield* call("GET", `${path}?sort=name`)
      expect(slugs(byName.body)).toEqual(slugsOf([0, 1, 2, 3, 4, 5, 6, 7]))
      const newest = yield* call("GET", `${path}?sort=newest`)
      expect(slugs(newest.body)).toEqual(slugsOf([7, 6, 5, 4, 3, 2, 1, 0]))
    }))

  it.effect("filters: repeated values are alternatives, different filters all hold", () =>
    Effect.gen(function*() {
      const solana = yield* call("GET", `${path}?networks=solana`)
      expect(slugs(solana.body)).toEqual(slugsOf([2]))
      const both = yield* call("GET", `${path}?networks=solana&networks=base&sort=name`)
      expect(slugs(both.body)).toEqual(slugsOf([0, 1, 2, 5, 6, 7]))
      const x402 = yield* call("GET", `${path}?protocols=x402&sort=name`)
      expect(slugs(x402.body)).toEqual(slugsOf([0, 2, 6]))
      const states = yield* call("GET", `${path}?verificationStates=VERIFIED&verificationStates=EXPIRED&sort=name`)
      expect(slugs(states.body)).toEqual(slugsOf([0, 1, 4]))
      const all = yield* call("GET", `${path}?networks=base&protocols=x402&verificationStates=VERIFIED`)
      expect(slugs(all.body)).toEqual(slugsOf([0]))
      const none = yield* call("GET", `${path}?networks=ethereum`)
      expect(none.status).toBe(200)
      expect(none.body.data).toEqual([])
      expect(none.body.nextCursor).toBeNull()
    }))

  it.effect("q finds the words of name, tagline or slug case-insensitively, a word as a prefix; punctuation matches nothing", () =>
    Effect.gen(function*() {
      expect(slugs((yield* call("GET", `${path}?q=RESEARCH`)).body)).toEqual(slugsOf([0]))
      expect(slugs((yield* call("GET", `${path}?q=chain%20MONITORING`)).body)).toEqual(slugsOf([1]))
      expect(slugs((yield* call("GET", `${path}?q=harbor-rel`)).body)).toEqual(slugsOf([7]))
      // no word at all: LIKE wildcards are not patterns
      expect((yield* call("GET", `${path}?q=%25`)).body.data).toEqual([])
      expect((yield* call("GET", `${path}?q=_`)).body.data).toEqual([])
    }))

  it.effect("pages through every sort at several limits with no duplicates or gaps", () =>
    Effect.gen(function*() {
      for (const sort of ["rank", "name", "newest"]) {
        const whole = yield* call("GET", `${path}?sort=${sort}`)
        for (const limit of [1, 2, 3]) {
          const { items, pages } = yield* allPages(`sort=${sort}`, limit, apiKey)
          expect(items.map((a) => a.publicId), `${sort} ${limit}`).toEqual(whole.body.data.map((a: any) => a.publicId))
          expect(new Set(items.map((a) => a.publicId)).size).toBe(8)
          expect(pages).toBe(Math.ceil(8 / limit))
        }
      }
      // with a filter: the cursor keeps to it
      const filtered = yield* allPages("networks=base&sort=newest", 2)
      expect(filtered.items.map((a) => a.canonicalSlug)).toEqual(slugsOf([7, 6, 5, 1, 0]))
    }))

  it.effect("a cursor is bound to the filters, q, sort and caller, and refuses tampering", () =>
    Effect.gen(function*() {
      const first = yield* call("GET", `${path}?networks=base&limit=2`)
      const cursor: string = first.body.nextCursor
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
      const next = (query: string, headers: Record<string, string> = {}) =>
        call("GET", `${path}?${query}&cursor=${encodeURIComponent(cursor)}`, { headers })
      // same query (any limit, filter values in any order): accepted
      expect((yield* next("networks=base&limit=5")).status).toBe(200)
      expect((yield* next("networks=base&networks=base&limit=2")).status).toBe(200)
      for (const other of ["networks=solana", "networks=base&sort=name", "networks=base&q=a", "networks=base&protocols=x402", "limit=2"]) {
        expectProblem(yield* next(other), 400, "invalid-cursor")
      }
      // another caller: the same query with an API key
      expectProblem(yield* next("networks=base", apiKey), 400, "invalid-cursor")
      const dot = cursor.indexOf(".")
      for (const at of [0, Math.floor(dot / 2), dot + 1, cursor.length - 1]) {
        const reply = yield* call("GET", `${path}?networks=base&cursor=${encodeURIComponent(tamper(cursor, at))}`)
        expectProblem(reply, 400, "invalid-cursor")
        expect(reply.body.errors[0].pointer).toBe("/cursor")
      }
    }))

  it.effect("refuses malformed parameters with 400 naming the field, never echoing the value", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["verificationStates=NOPE", "/verificationStates"],
        ["networks=BASE", "/networks"],
        ["networks=" + "a".repeat(101), "/networks"],
        [Array.from({ length: 21 }, (_, i) => `protocols=p${i}`).join("&"), "/protocols"],
        ["q=", "/q"],
        ["q=" + "x".repeat(201), "/q"],
        ["sort=stars", "/sort"],
        ["limit=0", "/limit"],
        ["limit=101", "/limit"],
        ["limit=05", "/limit"],
        ["cursor=", "/cursor"]
      ]
      for (const [query, pointer] of cases) {
        const reply = yield* call("GET", `${path}?${query}`)
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors[0].pointer.startsWith(pointer), `${query}: ${reply.text}`).toBe(true)
        expect(reply.body.errors[0].in).toBe("query")
        expect(reply.text).not.toContain("NOPE")
        expect(reply.text).not.toContain("stars")
      }
    }))

  it.effect("anonymous or an API key with agents:read; a bad key 401, a key without the scope 403", () =>
    Effect.gen(function*() {
      expect((yield* call("GET", path, { headers: apiKey })).status).toBe(200)
      expect((yield* call("GET", path, { headers: { "x-api-key": DemoApiKeys.agentsOnly.key } })).status).toBe(200)
      expectProblem(yield* call("GET", path, { headers: { "x-api-key": DemoApiKeys.revoked.key } }), 401, "unauthenticated")
      expectProblem(yield* call("GET", path, { headers: { "x-api-key": DemoApiKeys.browser.key } }), 403, "insufficient-scope")
    }))
})
