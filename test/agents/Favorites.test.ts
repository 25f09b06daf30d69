/** GET /api/v1/agents/favorites (Agents_ListFavoriteAgents, spec §2.10, §4.3). */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { FavoriteAgent } from "../../schema/agents.js"
import { Page } from "../../schema/envelope.js"
import { call, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { tamper } from "../support/cursor.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoAgents, DemoFavorites } from "../../demo/agents/seed.js"

const path = "/api/v1/agents/favorites"
const server = makeTestServer()
const decodePage = Schema.decodeUnknownSync(Page(FavoriteAgent, 100), { onExcessProperty: "error" })

/** The wire item of a demo agent (spec §2.10). */
const item = (index: number) => {
  const agent = DemoAgents[index]!
  return {
    publicId: agent.id,
    canonicalSlug: agent.slug,
    name: agent.name,
    rank: agent.rank,
    tagline: agent.tagline,
    description: `${agent.name}: an agent of the demo directory.`,
    starCount: agent.stars,
    verificationState: agent.state
  }
}

/** A demo account's favorites, newest first. */
const favoritesOf = (account: string) =>
  DemoFavorites.filter(([who]) => who === account)
    .slice()
    .sort((a, b) => b[2] - a[2])
    .map(([, index]) => item(index))


layer(server.layer)("Agents_ListFavoriteAgents", (it) => {
  it.effect("lists the owner's four favorites newest first with exact field values", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", path, { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^application\/json/)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expect(Object.keys(reply.body).sort()).toEqual(["data", "meta", "nextCursor"])
      expect(reply.body.data).toEqual([item(3), item(2), item(1), item(0)])
      expect(reply.body.data).toEqual(favoritesOf("owner"))
      expect(reply.body.nextCursor).toBeNull()
      expectMeta(reply)
      // rank and starCount are digit strings; rank and tagline are nullable but present
      // (ranks are the reputation projection's)
      const delta = reply.body.data[0]
      expect(delta.rank).toBe("4")
      expect(delta.starCount).toBe("87")
      const cobalt = reply.body.data[1]
      expect(cobalt.tagline).toBeNull()
      expect(cobalt.rank).toBe("3")
      expect(Object.keys(cobalt)).toContain("tagline")
      expect(Object.keys(delta)).toContain("rank")
      expect(() => decodePage(reply.body)).not.toThrow()
    }))

  it.effect("pages with limit and a signed cursor; the pages concatenate to the unpaged list", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const all = yield* call("GET", path, { session: owner })
      const first = yield* call("GET", `${path}?limit=3`, { session: owner })
      expect(first.status, first.text).toBe(200)
      expect(first.body.data).toHaveLength(3)
      expect(first.body.data).toEqual(all.body.data.slice(0, 3))
      expect(typeof first.body.nextCursor).toBe("string")
      expect(first.body.nextCursor.length).toBeGreaterThan(0)
      expect(first.body.nextCursor.length).toBeLessThanOrEqual(2048)
      expect(first.body.nextCursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
      expect(() => decodePage(first.body)).not.toThrow()

      const cursor = encodeURIComponent(first.body.nextCursor)
      const second = yield* call("GET", `${path}?limit=3&cursor=${cursor}`, { session: owner })
      expect(second.status, second.text).toBe(200)
      expect(second.body.data).toHaveLength(1)
      expect(second.body.nextCursor).toBeNull()
      expect([...first.body.data, ...second.body.data]).toEqual(all.body.data)
      expect(second.body.data).toEqual([item(0)])

      // the same cursor is reusable and deterministic
      const again = yield* call("GET", `${path}?limit=3&cursor=${cursor}`, { session: owner })
      expect(again.body.data).toEqual(second.body.data)
    }))

  it.effect("pages one at a time through every favorite", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const seen: Array<unknown> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const query: string = cursor === null ? "limit=1" : `limit=1&cursor=${encodeURIComponent(cursor)}`
        const reply = yield* call("GET", `${path}?${query}`, { session: owner })
        expect(reply.status, reply.text).toBe(200)
        expect(reply.body.data).toHaveLength(1)
        seen.push(...reply.body.data)
        cursor = reply.body.nextCursor
        pages++
      } while (cursor !== null && pages < 10)
      expect(pages).toBe(4)
      expect(seen).toEqual(favoritesOf("owner"))
    }))

  it.effect("rejects a cursor with one character changed (body or signature) as invalid-cursor", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const first = yield* call("GET", `${path}?limit=3`, { session: owner })
      const cursor: string = first.body.nextCursor
      const dot = cursor.indexOf(".")
      for (const at of [0, Math.floor(dot / 2), dot + 1, dot + 10]) {
        const bad = tamper(cursor, at)
        expect(bad).not.toBe(cursor)
        const reply = yield* call("GET", `${path}?limit=3&cursor=${encodeURIComponent(bad)}`, { session: owner })
        expectProblem(reply, 400, "invalid-cursor")
        expect(reply.body.errors).toHaveLength(1)
        expect(reply.body.errors[0].pointer).toBe("/cursor")
        expect(reply.body.errors[0].in).toBe("query")
      }
      for (const bad of ["x", "not-a-cursor", `${cursor}.x`, cursor.replace(".", ""), `.${cursor.split(".")[1]}`]) {
        const reply = yield* call("GET", `${path}?cursor=${encodeURIComponent(bad)}`, { session: owner })
        expectProblem(reply, 400, "invalid-cursor")
        expect(reply.body.errors[0].pointer).toBe("/cursor")
      }
    }))

  it.effect("rejects every one-character change of the signature, even ones that decode to the same bytes", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const first = yield* call("GET", `${path}?limit=3`, { session: owner })
      const cursor: string = first.body.nextCursor
      const dot = cursor.indexOf(".")
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
      const variants: Array<string> = []
      for (let at = dot + 1; at < cursor.length; at++) {
        // the neighbour differing in the lowest bit: for the last character those bits are padding
        const sibling = alphabet[alphabet.indexOf(cursor[at]!) ^ 1]!
        variants.push(cursor.slice(0, at) + sibling + cursor.slice(at + 1))
      }
      variants.push(`${cursor}=`, `${cursor}A`, cursor.slice(0, -1), `${cursor.slice(0, dot + 1)} ${cursor.slice(dot + 1)}`)
      for (const bad of variants) {
        expect(bad).not.toBe(cursor)
        const reply = yield* call("GET", `${path}?limit=3&cursor=${encodeURIComponent(bad)}`, { session: owner })
        expect(reply.status, bad).toBe(400)
        expect(reply.body.type).toBe("https://agent-directory.dev/problems/invalid-cursor")
      }
    }))

  it.effect("rejects the owner's cursor when the member presents it (bound to the caller)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const member = yield* signIn("member")
      const first = yield* call("GET", `${path}?limit=1`, { session: owner })
      const cursor = encodeURIComponent(first.body.nextCursor)
      const reply = yield* call("GET", `${path}?limit=1&cursor=${cursor}`, { session: member })
      expectProblem(reply, 400, "invalid-cursor")
      expect(reply.body.errors[0].pointer).toBe("/cursor")
      // still valid for its owner
      const ok = yield* call("GET", `${path}?limit=1&cursor=${cursor}`, { session: owner })
      expect(ok.status).toBe(200)
    }))

  it.effect("rejects limits outside 1-100, non-integers and out-of-range cursor lengths", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      for (const limit of ["0", "101", "abc", "-1", "1.5", ""]) {
        const reply = yield* call("GET", `${path}?limit=${limit}`, { session: owner })
        expectProblem(reply, 400)
        expect(reply.body.errors.some((e: { pointer: string }) => e.pointer === "/limit"), limit).toBe(true)
      }
      const empty = yield* call("GET", `${path}?cursor=`, { session: owner })
      expectProblem(empty, 400)
      expect(empty.body.errors[0].pointer).toBe("/cursor")
      const long = yield* call("GET", `${path}?cursor=${"A".repeat(2049)}`, { session: owner })
      expectProblem(long, 400)
      expect(long.body.errors[0].pointer).toBe("/cursor")
    }))

  it.effect("accepts the limit bounds 1 and 100", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const one = yield* call("GET", `${path}?limit=1`, { session: owner })
      expect(one.status).toBe(200)
      expect(one.body.data).toEqual([item(3)])
      const hundred = yield* call("GET", `${path}?limit=100`, { session: owner })
      expect(hundred.status).toBe(200)
      expect(hundred.body.data).toHaveLength(4)
      expect(hundred.body.nextCursor).toBeNull()
    }))

  it.effect("needs a session: 401 without one or with an unknown cookie", () =>
    Effect.gen(function*() {
      const anonymous = yield* call("GET", path)
      expectProblem(anonymous, 401, "unauthenticated")
      const forged = yield* call("GET", path, { headers: { cookie: `session=${"A".repeat(43)}` } })
      expectProblem(forged, 401, "unauthenticated")
      expect(forged.body.detail).toBe(anonymous.body.detail)
    }))

  it.effect("shows the member only its own favorite", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      const reply = yield* call("GET", path, { session: member })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual([item(4)])
      expect(reply.body.data).toEqual(favoritesOf("member"))
      expect(reply.body.nextCursor).toBeNull()
    }))

  it.effect("lists nothing for an account without favorites", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const reply = yield* call("GET", path, { session: outsider })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual([])
      expect(reply.body.nextCursor).toBeNull()
    }))
})

/** A server whose outsider has 30 favorites, several sharing one timestamp (keyset ties). */
const bulk = makeTestServer()

layer(bulk.layer)("Agents_ListFavoriteAgents with many favorites", (it) => {
  const seedFavorites = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const outsider = DemoAccounts.outsider.id
    for (let n = 1; n <= 30; n++) {
      const id = `01900099-0000-7000-8000-${n.toString(16).padStart(12, "0")}`
      yield* sql`INSERT INTO agents (id, canonical_slug, name, rank, tagline, description, star_count, verification_state)
                 VALUES (${id}, ${`bulk-${n}`}, ${`Bulk ${n}`}, NULL, NULL, ${"bulk"}, ${String(n)}, 'UNVERIFIED')`
      // groups of three share a timestamp with microseconds; ties are broken by agent id
      const at = `2026-03-${String(1 + Math.floor((n - 1) / 3)).padStart(2, "0")}T10:00:00.123456Z`
      yield* sql`INSERT INTO favorite_agents (account_id, agent_id, created_at) VALUES (${outsider}, ${id}, ${at}::timestamptz)`
    }
  }).pipe(Effect.orDie)

  it.effect("defaults to 25 items and pages through ties without gaps or repeats", () =>
    Effect.gen(function*() {
      yield* seedFavorites
      const outsider = yield* signIn("outsider")
      const all = yield* call("GET", `${path}?limit=100`, { session: outsider })
      expect(all.status, all.text).toBe(200)
      expect(all.body.data).toHaveLength(30)
      expect(all.body.nextCursor).toBeNull()
      // newest first, then agent id descending within one timestamp
      expect(all.body.data.slice(0, 3).map((a: { name: string }) => a.name)).toEqual(["Bulk 30", "Bulk 29", "Bulk 28"])

      const byDefault = yield* call("GET", path, { session: outsider })
      expect(byDefault.body.data).toHaveLength(25)
      expect(byDefault.body.data).toEqual(all.body.data.slice(0, 25))
      expect(typeof byDefault.body.nextCursor).toBe("string")

      for (const limit of [1, 2, 4, 7]) {
        const seen: Array<{ publicId: string }> = []
        let cursor: string | null = null
        let pages = 0
        do {
          const query: string = cursor === null ? `limit=${limit}` : `limit=${limit}&cursor=${encodeURIComponent(cursor)}`
          const reply = yield* call("GET", `${path}?${query}`, { session: outsider })
          expect(reply.status, reply.text).toBe(200)
          expect(reply.body.data.length).toBeLessThanOrEqual(limit)
          seen.push(...reply.body.data)
          cursor = reply.body.nextCursor
          pages++
        } while (cursor !== null && pages < 40)
        expect(pages, `limit ${limit}`).toBe(Math.ceil(30 / limit))
        expect(seen, `limit ${limit}`).toEqual(all.body.data)
      }
    }))
})
