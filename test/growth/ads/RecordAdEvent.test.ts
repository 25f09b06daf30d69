/**
 * Growth_RecordAdEvent (POST /api/v1/ads/events, spec §4.2, §6) through the HTTP stack:
 * serving tokens, the metrics they move, exactly once per Idempotency-Key (also under
 * concurrent duplicates, on PostgreSQL), and every listed status it can produce.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { mint } from "../../../src/growth/ads/ServingToken.js"
import { DemoAdCampaigns, type DemoAdCampaignName, demoServingToken } from "../../../demo/growth/ads/seed.js"
import { testConfig } from "../../support/config.js"
import { call, expectMeta, expectProblem } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { DemoApiKeys } from "../../../demo/accounts/seed.js"
import { onPostgres } from "../../support/database.js"

const server = makeTestServer()
const path = "/api/v1/ads/events"

const record = (body: unknown, options: { idempotencyKey?: string | null; headers?: Record<string, string> } = {}) =>
  call("POST", path, { body, ...options })

const metrics = (name: DemoAdCampaignName) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ impressions: string; clicks: string; uniqueVisitors: string; events: number }>`
      SELECT impressions::text, clicks::text, unique_visitors::text AS "uniqueVisitors",
             (SELECT count(*)::int FROM ad_events e WHERE e.campaign_id = c.id) AS events
      FROM ad_campaigns c WHERE id = ${DemoAdCampaigns[name].id}`.pipe(Effect.map(([row]) => row!)))

const epochSeconds = TestEpoch.getTime() / 1000

layer(server.layer)("Growth_RecordAdEvent", (it) => {
  it.effect("202: an impression counts once per key (replays count nothing), a click counts clicks, new visitors count once", () =>
    Effect.gen(function*() {
      expect(yield* metrics("active")).toEqual({ impressions: "1200", clicks: "37", uniqueVisitors: "800", events: 0 })
      const key = randomUUID()
      const body = { token: demoServingToken(), kind: "IMPRESSION" }
      const reply = yield* record(body, { idempotencyKey: key })
      expect(reply.status, reply.text).toBe(202)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(reply.body.data).toEqual({ accepted: true, requestId: reply.headers["x-request-id"] })
      expect(yield* metrics("active")).toEqual({ impressions: "1201", clicks: "37", uniqueVisitors: "801", events: 1 })
      const replay = yield* record(body, { idempotencyKey: key })
      expect(replay.status).toBe(202)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.body.data).toEqual(reply.body.data)
      expect(yield* metrics("active")).toEqual({ impressions: "1201", clicks: "37", uniqueVisitors: "801", events: 1 })
      // the same key with another body is a reuse, not a second count
      expectProblem(yield* record({ ...body, kind: "CLICK" }, { idempotencyKey: key }), 409, "idempotency-key-reuse")
      // a new key for the same visitor: one more impression, not one more visitor
      expect((yield* record(body)).status).toBe(202)
      expect((yield* record({ ...body, kind: "CLICK" })).status).toBe(202)
      expect(yield* metrics("active")).toEqual({ impressions: "1202", clicks: "38", uniqueVisitors: "801", events: 3 })
      // a click of a new visitor is not a visitor reached by an impression
      expect((yield* record({ token: demoServingToken({ visitor: "v-2" }), kind: "CLICK" })).status).toBe(202)
      expect((yield* record({ token: demoServingToken({ visitor: "v-3" }), kind: "IMPRESSION" })).status).toBe(202)
      expect(yield* metrics("active")).toEqual({ impressions: "1203", clicks: "39", uniqueVisitors: "802", events: 5 })
      const sql = yield* SqlClient.SqlClient
      const [event] = yield* sql<{ kind: string; placement: string; visitor: string }>`
        SELECT kind, placement, visitor FROM ad_events WHERE id = ${reply.body.data.requestId}`
      expect(event).toEqual({ kind: "IMPRESSION", placement: "directory.home.strip", visitor: "demo-visitor-1" })
    }))

  it.effect("public: anonymous or an API key with public:read; a bad key 401, a key without the scope 403", () =>
    Effect.gen(function*() {
      const body = { token: demoServingToken(), kind: "IMPRESSION" }
      const withKey = yield* record(body, { headers: { "x-api-key": DemoApiKeys.public.key } })
      expect(withKey.status, withKey.text).toBe(202)
      expectProblem(yield* record(body, { headers: { "x-api-key": DemoApiKeys.revoked.key } }), 401, "unauthenticated")
      expectProblem(yield* record(body, { headers: { "x-api-key": DemoApiKeys.agentsOnly.key } }), 403, "insufficient-scope")
    }))

  it.effect("400 for a forged, malformed or expired token and for a broken body; nothing is counted", () =>
    Effect.gen(function*() {
      const before = yield* metrics("active")
      const token = demoServingToken()
      const [claims, signature] = token.slice(3).split(".") as [string, string]
      const otherKey = Redacted.value(testConfig().keys.cursor)
      const forged = [
        mint(otherKey, { campaign: DemoAdCampaigns.active.id, placement: "x", visitor: "y" }, TestEpoch),
        `v1.${Buffer.from(JSON.stringify({ campaign: DemoAdCampaigns.paused.id, placement: "x", visitor: "y", exp: 2e9 })).toString("base64url")}.${signature}`,
        `v1.${claims}.${signature.slice(0, -2)}AA`,
        `v2.${claims}.${signature}`,
        "v1.not-json-at-all.signature-here",
        "x".repeat(40)
      ]
      for (const t of forged) {
        const reply = yield* record({ token: t, kind: "IMPRESSION" })
        expectProblem(reply, 400, "invalid-serving-token")
        expect(reply.body.errors).toEqual([{ in: "body", pointer: "/token", detail: "must be a serving token signed by this service" }])
        expect(reply.text).not.toContain(t)
      }
      const expired = demoServingToken({ exp: epochSeconds })
      expectProblem(yield* record({ token: expired, kind: "IMPRESSION" }), 400, "serving-token-expired")
      expect((yield* record({ token: demoServingToken({ exp: epochSeconds + 1 }), kind: "CLICK" })).status).toBe(202)
      for (
        const body of [
          { token: token, kind: "VIEW" },
          { token: "short", kind: "IMPRESSION" },
          { token: "t".repeat(2001), kind: "IMPRESSION" },
          { token },
          { token, kind: "CLICK", extra: 1 }
        ]
      ) expectProblem(yield* record(body), 400, "invalid-request")
      expectProblem(yield* record({ token, kind: "CLICK" }, { idempotencyKey: null }), 400, "idempotency-key-required")
      expect(yield* metrics("active")).toEqual({ ...before, clicks: String(Number(before.clicks) + 1), events: before.events + 1 })
    }))

  it.effect("404 for a token of an unknown campaign; 409 ad-campaign-not-active for a campaign that is not ACTIVE", () =>
    Effect.gen(function*() {
      expectProblem(yield* record({ token: demoServingToken({ campaign: randomUUID() }), kind: "IMPRESSION" }), 404, "ad-campaign-not-found")
      for (const name of ["paused", "draft", "submitted", "rejected"] as const) {
        const before = yield* metrics(name)
        const reply = yield* record({ token: demoServingToken({ campaign: DemoAdCampaigns[name].id }), kind: "CLICK" })
        expectProblem(reply, 409, "ad-campaign-not-active")
        expect(reply.body.detail).toContain("only an ACTIVE campaign records ad events")
        expect(yield* metrics(name)).toEqual(before)
      }
    }))

  it.effect("409 ad-campaign-not-active for an ACTIVE campaign outside its window: from endAt on (before the lifecycle tick), before startAt", () =>
    Effect.gen(function*() {
      // this file's clock never moves, so no lifecycle tick runs: the request checks the window itself
      const sql = yield* SqlClient.SqlClient
      const id = DemoAdCampaigns.paused.id
      const token = demoServingToken({ campaign: id })
      const [seeded] = yield* sql<{ startAt: Date; endAt: Date }>`
        SELECT start_at AS "startAt", end_at AS "endAt" FROM ad_campaigns WHERE id = ${id}`
      const window = (startAt: Date, endAt: Date) =>
        sql`UPDATE ad_campaigns SET state = 'ACTIVE', start_at = ${startAt}, end_at = ${endAt} WHERE id = ${id}`
      const minute = 60_000
      yield* window(new Date(TestEpoch.getTime() - 30 * minute), new Date(TestEpoch.getTime() + 1))
      expect((yield* record({ token, kind: "CLICK" })).status).toBe(202)
      const before = yield* metrics("paused")
      yield* window(new Date(TestEpoch.getTime() - 30 * minute), TestEpoch)
      const ended = yield* record({ token, kind: "CLICK" })
      expectProblem(ended, 409, "ad-campaign-not-active")
      expect(ended.body.detail).toBe(`The campaign ended at ${TestEpoch.toISOString()}; it records no more ad events.`)
      yield* window(new Date(TestEpoch.getTime() + 1), new Date(TestEpoch.getTime() + 30 * minute))
      expectProblem(yield* record({ token, kind: "IMPRESSION" }), 409, "ad-campaign-not-active")
      expect(yield* metrics("paused")).toEqual(before)
      yield* sql`UPDATE ad_campaigns SET state = 'PAUSED', start_at = ${seeded!.startAt}, end_at = ${seeded!.endAt} WHERE id = ${id}`
    }))
})

describe.skipIf(!onPostgres)("needs PostgreSQL: the embedded database serializes every transaction on its one connection", () => {
  layer(server.layer)("Growth_RecordAdEvent: concurrent duplicates", (it) => {
    it.effect("20 concurrent identical requests with one Idempotency-Key count exactly one impression", () =>
      Effect.gen(function*() {
        const before = yield* metrics("active")
        const key = randomUUID()
        const body = { token: demoServingToken({ visitor: "concurrent-visitor" }), kind: "IMPRESSION" }
        const replies = yield* Effect.all(Array.from({ length: 20 }, () => record(body, { idempotencyKey: key })), {
          concurrency: "unbounded"
        })
        // the first commits; the others are replays (202) or refused while it runs (409 in flight)
        for (const r of replies) {
          if (r.status === 409) expectProblem(r, 409, "idempotency-request-in-flight")
          else expect(r.status, r.text).toBe(202)
        }
        const accepted = replies.filter((r) => r.status === 202)
        expect(accepted.filter((r) => r.headers["idempotent-replayed"] !== "true")).toHaveLength(1)
        expect(new Set(accepted.map((r) => r.body.data.requestId)).size).toBe(1)
        expect(yield* metrics("active")).toEqual({
          impressions: String(Number(before.impressions) + 1),
          clicks: before.clicks,
          uniqueVisitors: String(Number(before.uniqueVisitors) + 1),
          events: before.events + 1
        })
      }))

    it.effect("20 concurrent requests with different keys count twenty (no lost update)", () =>
      Effect.gen(function*() {
        const before = yield* metrics("active")
        const body = { token: demoServingToken(), kind: "CLICK" }
        const replies = yield* Effect.all(Array.from({ length: 20 }, () => record(body)), { concurrency: "unbounded" })
        expect(replies.map((r) => r.status)).toEqual(Array(20).fill(202))
        expect((yield* metrics("active")).clicks).toBe(String(Number(before.clicks) + 20))
      }))
  })
})
