/**
 * Optimistic concurrency of Services_PublishServiceOffer (spec §2.1 version, §7):
 * concurrent publishes at one version succeed exactly once.
 *
 * Only PostgreSQL can interleave the requests: the embedded database is one session
 * (a pool of one connection), so every transaction runs alone and a read-then-write
 * publish would pass too. On PostgreSQL (a pool of 20) the twenty requests run their
 * transactions at once; if the conditional `UPDATE … WHERE version = $v` were a read
 * followed by an unconditional write, several would read version 2 and all of them
 * would write, and the "exactly one 200" assertions fail.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { countIdempotencyRecords, expectNotReplayed, publish, readOffer } from "./support.js"
import { onPostgres } from "../support/database.js"

const server = makeTestServer()

const conflictKinds = [
  "https://agent-directory.dev/problems/version-conflict",
  "https://agent-directory.dev/problems/invalid-state"
]


describe.skipIf(!onPostgres)("needs PostgreSQL: the embedded database serializes every transaction on its one connection", () => {
  layer(server.layer)("Services_PublishServiceOffer: optimistic concurrency", (it) => {
    it.effect("20 concurrent publishes at one version: exactly one 200, nineteen 409, version +1", () =>
      Effect.gen(function*() {
        const owner = yield* signIn("owner")
        const before = yield* readOffer("review")
        expect(before).toMatchObject({ state: "REVIEW", version: 2 })
        const keys = Array.from({ length: 20 }, () => randomUUID())
        const replies = yield* Effect.all(
          keys.map((idempotencyKey) => publish("review", { session: owner, idempotencyKey, body: { version: 2 } })),
          { concurrency: "unbounded" }
        )
        const ok = replies.filter((r) => r.status === 200)
        const conflicts = replies.filter((r) => r.status === 409)
        expect(ok, replies.map((r) => `${r.status} ${r.text}`).join("\n")).toHaveLength(1)
        expect(conflicts).toHaveLength(19)
        for (const reply of conflicts) {
          expectProblem(reply, 409)
          expect(conflictKinds).toContain(reply.body.type)
        }
        for (const reply of replies) expectNotReplayed(reply)
        expect(ok[0]!.body.data).toMatchObject({ state: "PUBLISHED", version: 3 })
        const after = yield* readOffer("review")
        expect(after.state).toBe("PUBLISHED")
        expect(after.version).toBe(before.version + 1)
        // every distinct key stored its own outcome: the success and the nineteen 409s
        let stored = 0
        for (const key of keys) stored += yield* countIdempotencyRecords(key)
        expect(stored).toBe(20)
      }))

    it.effect("concurrent publishes by different editors at one version: exactly one wins", () =>
      Effect.gen(function*() {
        const owner = yield* signIn("owner")
        const member = yield* signIn("member")
        const replies = yield* Effect.all(
          Array.from({ length: 10 }, (_, i) => publish("spare", { session: i % 2 === 0 ? owner : member, body: { version: 1 } })),
          { concurrency: "unbounded" }
        )
        expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
        for (const reply of replies.filter((r) => r.status !== 200)) {
          expectProblem(reply, 409)
          expect(conflictKinds).toContain(reply.body.type)
        }
        expect(yield* readOffer("spare")).toMatchObject({ state: "PUBLISHED", version: 2 })
      }))

    it.effect("concurrent publishes of different offers do not interfere", () =>
      Effect.gen(function*() {
        const owner = yield* signIn("owner")
        const [starter, paused] = yield* Effect.all([
          publish("starter", { session: owner, body: { version: 1 } }),
          publish("paused", { session: owner, body: { version: 4 } })
        ], { concurrency: "unbounded" })
        expect(starter.status, starter.text).toBe(200)
        expect(paused.status, paused.text).toBe(200)
        expect(yield* readOffer("starter")).toMatchObject({ state: "PUBLISHED", version: 2 })
        expect(yield* readOffer("paused")).toMatchObject({ state: "PUBLISHED", version: 5 })
      }))
  })
})
