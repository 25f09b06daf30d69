/**
 * The Idempotency-Key layer (spec §4.1; layers/Idempotency.ts), exercised through
 * Services_PublishServiceOffer: replays, stored 4xx, key reuse, principal scope,
 * concurrent use of one key, 24-hour retention, and 5xx results not being stored.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectProblem, type Reply, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { countIdempotencyRecords, expectNotReplayed, expectReplayOf, publish, readOffer } from "../services/support.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoAssets, DemoNetworks } from "../../demo/common.js"
import { DemoOffers } from "../../demo/services/seed.js"
import { onPostgres } from "../support/database.js"

const problemType = (kind: string) => `https://agent-directory.dev/problems/${kind}`

const server = makeTestServer()

layer(server.layer)("Idempotency-Key", (it) => {
  it.effect("same key + same body: the stored response is replayed byte for byte; the offer is published once", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const first = yield* publish("starter", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expect(first.status, first.text).toBe(200)
      expectNotReplayed(first)
      expect(first.body.data).toMatchObject({ state: "PUBLISHED", version: 2 })
      const second = yield* publish("starter", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expectReplayOf(second, first)
      // the replay is the first response, including its meta.requestId
      expect(second.body.meta.requestId).toBe(first.body.meta.requestId)
      const third = yield* publish("starter", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expectReplayOf(third, first)
      expect(yield* readOffer("starter")).toMatchObject({ state: "PUBLISHED", version: 2 })
      expect(yield* countIdempotencyRecords(key)).toBe(1)
    }))

  it.effect("the key is matched case-insensitively", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const first = yield* publish("published", { session: owner, idempotencyKey: key, body: { version: 3 } })
      expectProblem(first, 409, "invalid-state")
      const upper = yield* publish("published", { session: owner, idempotencyKey: key.toUpperCase(), body: { version: 3 } })
      expectReplayOf(upper, first)
    }))

  it.effect("a stored 4xx is replayed with its original body (same requestId)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const first = yield* publish("review", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expectProblem(first, 409, "version-conflict")
      expectNotReplayed(first)
      const second = yield* publish("review", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expectReplayOf(second, first)
      expect(second.status).toBe(409)
      expect(second.headers["content-type"]).toMatch(/^application\/problem\+json/)
      expect(second.body.requestId).toBe(first.body.requestId)
      expect(second.body.type).toBe(problemType("version-conflict"))
      expect(yield* readOffer("review")).toMatchObject({ state: "REVIEW", version: 2 })
    }))

  it.effect("a stored 4xx is replayed even after the cause went away; a new key runs again", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const first = yield* publish("unpriced", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expectProblem(first, 409, "offer-incomplete")
      // give the offer a current price
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`INSERT INTO service_offer_prices
          (id, offer_id, version, network_id, asset_id, units, effective_from, effective_until, x402_resource_template)
        VALUES (${randomUUID()}, ${DemoOffers.unpriced.id}, 1, ${DemoNetworks.base.id}, ${DemoAssets.usdc.id},
                12000000, ${new Date("2026-01-01T00:00:00.000Z")}, NULL, NULL)`)
      const replay = yield* publish("unpriced", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expectReplayOf(replay, first)
      expect(yield* readOffer("unpriced")).toMatchObject({ state: "DRAFT", version: 1 })
      const fresh = yield* publish("unpriced", { session: owner, body: { version: 1 } })
      expect(fresh.status, fresh.text).toBe(200)
      expectNotReplayed(fresh)
      expect(fresh.body.data.prices.map((p: { units: string }) => p.units)).toEqual(["12000000"])
    }))

  it.effect("same key with a different body or on a different offer: 409 idempotency-key-reuse, nothing runs", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const first = yield* publish("review", { session: owner, idempotencyKey: key, body: { version: 9 } })
      expectProblem(first, 409, "version-conflict")
      const otherBody = yield* publish("review", { session: owner, idempotencyKey: key, body: { version: 2 } })
      expectProblem(otherBody, 409, "idempotency-key-reuse")
      expectNotReplayed(otherBody)
      const otherPath = yield* publish("paused", { session: owner, idempotencyKey: key, body: { version: 9 } })
      expectProblem(otherPath, 409, "idempotency-key-reuse")
      expectNotReplayed(otherPath)
      // neither ran (a publishable body at the right version was refused)
      expect(yield* readOffer("review")).toMatchObject({ state: "REVIEW", version: 2 })
      expect(yield* readOffer("paused")).toMatchObject({ state: "PAUSED", version: 4 })
      // the reuse refusals were not stored over the original outcome
      const again = yield* publish("review", { session: owner, idempotencyKey: key, body: { version: 9 } })
      expectReplayOf(again, first)
      expect(yield* countIdempotencyRecords(key)).toBe(1)
    }))

  it.effect("the same key from another account is another scope: it runs, not replayed", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const member = yield* signIn("member")
      const key = randomUUID()
      const byOwner = yield* publish("paused", { session: owner, idempotencyKey: key, body: { version: 4 } })
      expect(byOwner.status, byOwner.text).toBe(200)
      const byMember = yield* publish("paused", { session: member, idempotencyKey: key, body: { version: 4 } })
      // executed for the member: the offer is at version 5 now
      expectProblem(byMember, 409, "version-conflict")
      expectNotReplayed(byMember)
      expect(byMember.body.detail).toMatch(/\bversion 5\b/)
      expect(yield* readOffer("paused")).toMatchObject({ state: "PUBLISHED", version: 5 })
      // each account keeps its own record under the key
      expect(yield* countIdempotencyRecords(key)).toBe(2)
      const sql = yield* SqlClient.SqlClient
      const principals = yield* Effect.orDie(
        sql<{ principal: string }>`SELECT principal FROM idempotency_records WHERE idempotency_key = ${key} ORDER BY principal`
      )
      expect(principals.map((r) => r.principal).sort()).toEqual(
        [`account:${DemoAccounts.owner.id}`, `account:${DemoAccounts.member.id}`].sort()
      )
      // and each replays its own outcome
      expectReplayOf(yield* publish("paused", { session: owner, idempotencyKey: key, body: { version: 4 } }), byOwner)
      expectReplayOf(yield* publish("paused", { session: member, idempotencyKey: key, body: { version: 4 } }), byMember)
    }))

  it.effect("two concurrent requests with one key: exactly one runs", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const before = yield* readOffer("spare")
      const replies = yield* Effect.all(
        [0, 1].map(() => publish("spare", { session: owner, idempotencyKey: key, body: { version: 1 } })),
        { concurrency: 2 }
      )
      const detail = replies.map((r) => `${r.status} ${JSON.stringify(r.headers)} ${r.text}`).join("\n")
      const executed = replies.filter((r) => r.headers["idempotent-replayed"] === undefined && r.status === 200)
      expect(executed, detail).toHaveLength(1)
      const other: Reply = replies.find((r) => r !== executed[0])!
      if (other.status === 200) {
        expectReplayOf(other, executed[0]!)
      } else {
        expectProblem(other, 409, "idempotency-request-in-flight")
        expectNotReplayed(other)
        expect(other.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/)
      }
      const after = yield* readOffer("spare")
      expect(after.version).toBe(before.version + 1)
      expect(after.state).toBe("PUBLISHED")
      // the finished request is replayed from now on
      const later = yield* publish("spare", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expectReplayOf(later, executed[0]!)
    }))
})

// PostgreSQL only: the embedded database has a single connection, which the held lock would occupy.
layer(makeTestServer().layer)("Idempotency-Key: request in flight", (it) => {
  it.effect.runIf(onPostgres)("while the key's lock is held: 409 idempotency-request-in-flight with Retry-After, nothing stored", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const scope = `account:${DemoAccounts.owner.id}\nServices_PublishServiceOffer\n${key}`
      // hold the advisory lock the first request of this key would hold
      const blocked = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${scope}, 0))`
        return yield* publish("starter", { session: owner, idempotencyKey: key, body: { version: 1 } })
      })).pipe(Effect.orDie)
      expectProblem(blocked, 409, "idempotency-request-in-flight")
      expectNotReplayed(blocked)
      expect(blocked.headers["retry-after"]).toBe("1")
      expect(yield* countIdempotencyRecords(key)).toBe(0)
      expect(yield* readOffer("starter")).toMatchObject({ state: "DRAFT", version: 1 })
      // once released, the retry runs
      const retried = yield* publish("starter", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expect(retried.status, retried.text).toBe(200)
      expectNotReplayed(retried)
    }))
})

const expiryServer = makeTestServer()

layer(expiryServer.layer)("Idempotency-Key: 24-hour retention", (it) => {
  it.effect("a record is replayed within 24 h and executed again after it expired", () =>
    Effect.gen(function*() {
      const key = randomUUID()
      const owner = yield* signIn("owner")
      const first = yield* publish("starter", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expect(first.status, first.text).toBe(200)

      // 23 hours later (sessions last 12 h: sign in again): still replayed
      expiryServer.clock.advance(23 * 3600 * 1000)
      const owner2 = yield* signIn("owner")
      const within = yield* publish("starter", { session: owner2, idempotencyKey: key, body: { version: 1 } })
      expectReplayOf(within, first)

      // 25 hours after the first request: expired, so it runs again (and the offer is at version 2 by now)
      expiryServer.clock.advance(2 * 3600 * 1000)
      const owner3 = yield* signIn("owner")
      const after = yield* publish("starter", { session: owner3, idempotencyKey: key, body: { version: 1 } })
      expectProblem(after, 409, "version-conflict")
      expectNotReplayed(after)
      expect(yield* readOffer("starter")).toMatchObject({ state: "PUBLISHED", version: 2 })

      // the new outcome replaced the expired record and is replayed in turn
      const replay = yield* publish("starter", { session: owner3, idempotencyKey: key, body: { version: 1 } })
      expectReplayOf(replay, after)
      expect(yield* countIdempotencyRecords(key)).toBe(1)
    }))
})

const failureServer = makeTestServer()

layer(failureServer.layer)("Idempotency-Key: 5xx results are not stored", (it) => {
  it.effect("a request that fails with 500 stores nothing and writes nothing; the same key then runs", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // make every update of an offer fail inside the database
      yield* Effect.orDie(sql.unsafe(`CREATE FUNCTION test_refuse_offer_update() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'offer updates disabled by the test'; END $$`))
      yield* Effect.orDie(sql.unsafe(`CREATE TRIGGER test_refuse_offer_update BEFORE UPDATE ON service_offers
        FOR EACH ROW EXECUTE FUNCTION test_refuse_offer_update()`))
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const failed = yield* publish("starter", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expectProblem(failed, 500, "internal-error")
      expect(failed.text).not.toContain("disabled by the test")
      expect(yield* countIdempotencyRecords(key)).toBe(0)
      expect(yield* readOffer("starter")).toMatchObject({ state: "DRAFT", version: 1 })

      yield* Effect.orDie(sql.unsafe(`DROP TRIGGER test_refuse_offer_update ON service_offers`))
      const retried = yield* publish("starter", { session: owner, idempotencyKey: key, body: { version: 1 } })
      expect(retried.status, retried.text).toBe(200)
      expectNotReplayed(retried)
      expect(retried.body.data).toMatchObject({ state: "PUBLISHED", version: 2 })
      expect(yield* countIdempotencyRecords(key)).toBe(1)
    }))
})
