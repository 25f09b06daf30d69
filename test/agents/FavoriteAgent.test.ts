/**
 * Agents_FavoriteAgent and Agents_UnfavoriteAgent:
 * PUT / DELETE /api/v1/agents/{entityPublicId}/favorite. `starCount` moves by one only when
 * a favorite row is really added or removed; Agents_ListFavoriteAgents shows the change;
 * each change marks the agent's evidence.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoAgents } from "../../demo/agents/seed.js"
import { call, type CallOptions, expectMeta, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { clearMarks, markOf } from "../support/evidenceMarks.js"
import { onPostgres } from "../support/database.js"

const favoritePath = (agent: number | string) =>
  `/api/v1/agents/${typeof agent === "number" ? DemoAgents[agent]!.id : agent}/favorite`

const put = (agent: number | string, options: CallOptions) => call("PUT", favoritePath(agent), options)
const remove = (agent: number | string, options: CallOptions) => call("DELETE", favoritePath(agent), options)

/** The stored star count of a demo agent. */
const stars = (agent: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ stars: string }>`SELECT star_count::text AS stars FROM agents WHERE id = ${DemoAgents[agent]!.id}`
    return row!.stars
  }).pipe(Effect.orDie)

/** The ids of an account's favorites, newest first (Agents_ListFavoriteAgents). */
const listed = (session: Session) =>
  Effect.gen(function*() {
    const reply = yield* call("GET", "/api/v1/agents/favorites?limit=100", { session })
    expect(reply.status, reply.text).toBe(200)
    return reply.body.data.map((a: { publicId: string }) => a.publicId) as Array<string>
  })

const server = makeTestServer()

layer(server.layer)("Agents_FavoriteAgent / Agents_UnfavoriteAgent", (it) => {
  it.effect("PUT adds (201, starCount + 1, listed first, marked), again 200 with nothing changed; DELETE 204 removes, again 204", () =>
    Effect.gen(function*() {
      const echo = DemoAgents[4]
      expect(yield* stars(4)).toBe(echo.stars)
      yield* clearMarks
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const added = yield* put(4, { session: owner, idempotencyKey: key })
      expect(added.status, added.text).toBe(201)
      expect(added.headers["cache-control"]).toBe("no-store")
      expectMeta(added)
      const plusOne = String(BigInt(echo.stars) + 1n)
      expect(added.body.data).toEqual({
        publicId: echo.id,
        canonicalSlug: echo.slug,
        name: echo.name,
        rank: echo.rank,
        tagline: echo.tagline,
        description: `${echo.name}: an agent of the demo directory.`,
        starCount: plusOne,
        verificationState: echo.state
      })
      expect(yield* stars(4)).toBe(plusOne)
      expect((yield* listed(owner))[0]).toBe(echo.id)
      expect(yield* markOf(echo.id)).toBe(TestEpoch.toISOString())
      // the same key: the stored 201
      const replay = yield* put(4, { session: owner, idempotencyKey: key })
      expect(replay.status).toBe(201)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.text).toBe(added.text)
      // a new PUT: it already is a favorite, 200, counted once
      const again = yield* put(4, { session: owner })
      expect(again.status, again.text).toBe(200)
      expect(again.body.data).toEqual(added.body.data)
      expect(yield* stars(4)).toBe(plusOne)
      // another account's favorite counts too
      const outsider = yield* signIn("outsider")
      const other = yield* put(4, { session: outsider })
      expect(other.status, other.text).toBe(201)
      expect(other.body.data.starCount).toBe(String(BigInt(echo.stars) + 2n))

      yield* clearMarks
      const deleteKey = randomUUID()
      const removed = yield* remove(4, { session: owner, idempotencyKey: deleteKey })
      expect(removed.status, removed.text).toBe(204)
      expect(removed.text).toBe("")
      expect(yield* stars(4)).toBe(plusOne)
      expect(yield* listed(owner)).not.toContain(echo.id)
      expect(yield* markOf(echo.id)).toBe(TestEpoch.toISOString())
      // replayed: 204 again, no body
      const replayed = yield* remove(4, { session: owner, idempotencyKey: deleteKey })
      expect(replayed.status).toBe(204)
      expect(replayed.headers["idempotent-replayed"]).toBe("true")
      expect(replayed.text).toBe("")
      // not a favorite any more: 204, nothing moves, nothing marked
      yield* clearMarks
      const absent = yield* remove(4, { session: owner })
      expect(absent.status, absent.text).toBe(204)
      expect(yield* stars(4)).toBe(plusOne)
      expect(yield* markOf(echo.id)).toBeUndefined()
    }))

  it.effect("DELETE of a seeded favorite: starCount - 1 and the list no longer shows it", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const delta = DemoAgents[3]
      expect(yield* listed(owner)).toContain(delta.id)
      const removed = yield* remove(3, { session: owner })
      expect(removed.status, removed.text).toBe(204)
      expect(yield* stars(3)).toBe(String(BigInt(delta.stars) - 1n))
      expect(yield* listed(owner)).not.toContain(delta.id)
    }))

  it.effect("404 agent-not-found for an unknown agent (PUT, DELETE) or an unlisted one (PUT); 409 invalid-state for a RETIRED one", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      expectProblem(yield* put(randomUUID(), { session: member }), 404, "agent-not-found")
      expectProblem(yield* remove(randomUUID(), { session: member }), 404, "agent-not-found")
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE agents SET listed_at = NULL WHERE id = ${DemoAgents[7].id}`
      expectProblem(yield* put(7, { session: member }), 404, "agent-not-found")
      expect(yield* stars(7)).toBe(DemoAgents[7].stars)
      // a RETIRED agent cannot become a favorite
      yield* sql`UPDATE agents SET state = 'RETIRED', retired_at = ${TestEpoch}, listed_at = NULL WHERE id = ${DemoAgents[6].id}`
      expectProblem(yield* put(6, { session: member }), 409, "invalid-state")
      expect(yield* stars(6)).toBe(DemoAgents[6].stars)
      // the member's favorite Echo Support retired: it can still be removed
      yield* sql`UPDATE agents SET state = 'RETIRED', retired_at = ${TestEpoch}, listed_at = NULL WHERE id = ${DemoAgents[4].id}`
      const before = yield* stars(4)
      expect(yield* listed(member)).toContain(DemoAgents[4].id)
      const removed = yield* remove(4, { session: member })
      expect(removed.status, removed.text).toBe(204)
      expect(yield* stars(4)).toBe(String(BigInt(before) - 1n))
      expect(yield* listed(member)).not.toContain(DemoAgents[4].id)
    }))

  it.effect("401 without a session; 403 without the CSRF token; 400 without an Idempotency-Key or with a bad path", () =>
    Effect.gen(function*() {
      expectProblem(yield* put(5, {}), 401, "unauthenticated")
      expectProblem(yield* remove(0, {}), 401, "unauthenticated")
      const member = yield* signIn("member")
      expectProblem(yield* put(5, { session: member, csrf: null }), 403, "csrf-token-invalid")
      expectProblem(yield* remove(4, { session: member, csrf: null }), 403, "csrf-token-invalid")
      expectProblem(yield* put(5, { session: member, idempotencyKey: null }), 400, "idempotency-key-required")
      const badPath = yield* put("nope", { session: member })
      expectProblem(badPath, 400)
      expect(badPath.body.errors[0]).toMatchObject({ in: "path", pointer: "/entityPublicId" })
      expect(yield* stars(5)).toBe(DemoAgents[5].stars)
    }))

  it.effect.skipIf(!onPostgres)(
    "concurrent PUTs of one account count once: one 201, the others 200; concurrent DELETEs remove once (PostgreSQL: several connections)",
    () =>
      Effect.gen(function*() {
        const admin = yield* signIn("admin")
        const before = BigInt(yield* stars(5))
        const puts = yield* Effect.all(Array.from({ length: 8 }, () => put(5, { session: admin })), { concurrency: "unbounded" })
        expect(puts.filter((r) => r.status === 201), puts.map((r) => r.text).join("\n")).toHaveLength(1)
        expect(puts.filter((r) => r.status === 200)).toHaveLength(7)
        expect(yield* stars(5)).toBe(String(before + 1n))
        const deletes = yield* Effect.all(Array.from({ length: 8 }, () => remove(5, { session: admin })), { concurrency: "unbounded" })
        for (const r of deletes) expect(r.status, r.text).toBe(204)
        expect(yield* stars(5)).toBe(String(before))
      })
  )
})
