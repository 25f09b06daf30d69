/**
 * Social_IngestProductEvent (spec §4.3): POST /api/v1/analytics/events — context
 * tokens, per-event verdicts (every rejection code and duplicates), the receipt,
 * idempotency, scopes and the request budget.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { testConfig } from "../../support/config.js"
import { expectMeta, expectProblem } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { contextToken, ingest } from "./support.js"
import { DemoApiKeys } from "../../../demo/accounts/seed.js"

const minutesAgo = (m: number) => new Date(TestEpoch.getTime() - m * 60_000).toISOString()

const server = makeTestServer()

layer(server.layer)("Social_IngestProductEvent", (it) => {
  it.effect("judges each event of a batch on its own: accepted, duplicates and every rejection code", () =>
    Effect.gen(function*() {
      const id = randomUUID()
      const conflictId = randomUUID()
      const event = { eventId: id, name: "traffic.page_view", occurredAt: minutesAgo(3), properties: { path: "/a" } }
      const batch = [
        event, // 0 accepted
        event, // 1 same id and content in the same batch: duplicate
        { ...event, properties: { path: "/b" } }, // 2 same id, other content
        {}, // 3 not an event, no id
        { eventId: conflictId, name: "Not A Name", occurredAt: minutesAgo(1) }, // 4 invalid, id known
        { eventId: randomUUID(), name: "traffic.page_view", occurredAt: minutesAgo(8 * 24 * 60) }, // 5 too old
        { eventId: randomUUID(), name: "traffic.page_view", occurredAt: new Date(TestEpoch.getTime() + 6 * 60_000).toISOString() }, // 6 future
        { eventId: randomUUID(), name: "marketing.email_open", occurredAt: minutesAgo(1) }, // 7 no consent
        { eventId: randomUUID(), name: "traffic.page_view", occurredAt: minutesAgo(1), entityPublicId: randomUUID() } // 8 no such agent
      ]
      const reply = yield* ingest({ contextToken: contextToken(), events: batch }, { idempotencyKey: null })
      expect(reply.status, reply.text).toBe(202)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(Object.keys(reply.body.data).sort()).toEqual(["accepted", "receipt", "rejected"])
      expect(reply.body.data.accepted).toEqual([{ index: 0, eventId: id, duplicate: false }, { index: 1, eventId: id, duplicate: true }])
      expect(reply.body.data.rejected).toEqual([
        { index: 2, eventId: id, code: "EVENT_ID_CONFLICT" },
        { index: 3, eventId: null, code: "INVALID_EVENT" },
        { index: 4, eventId: conflictId, code: "INVALID_EVENT" },
        { index: 5, eventId: batch[5]!.eventId, code: "TIMESTAMP_SKEW" },
        { index: 6, eventId: batch[6]!.eventId, code: "TIMESTAMP_SKEW" },
        { index: 7, eventId: batch[7]!.eventId, code: "CONSENT_REQUIRED" },
        { index: 8, eventId: batch[8]!.eventId, code: "SUBJECT_UNAVAILABLE" }
      ])
      const receipt = reply.body.data.receipt
      expect(receipt).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), durable: true, receivedAt: TestEpoch.toISOString() })
      // durable: the accepted event is stored (once) under the receipt
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ receipt_id: string; subject: string }>`SELECT receipt_id, subject FROM product_events WHERE event_id = ${id}`
      expect(rows).toEqual([{ receipt_id: receipt.id, subject: "visitor-1" }])
      expect(yield* sql`SELECT 1 FROM product_events WHERE event_id IN ${sql.in(batch.slice(4).map((e) => e.eventId!))}`).toHaveLength(0)
      // resent later: a duplicate; other content: a conflict
      const again = yield* ingest({ contextToken: contextToken(), events: [event, { ...event, name: "traffic.click" }] })
      expect(again.body.data.accepted).toEqual([{ index: 0, eventId: id, duplicate: true }])
      expect(again.body.data.rejected).toEqual([{ index: 1, eventId: id, code: "EVENT_ID_CONFLICT" }])
    }))

  it.effect("replays the first answer for a repeated Idempotency-Key; another body with it is a 409", () =>
    Effect.gen(function*() {
      const key = randomUUID()
      const body = { contextToken: contextToken(), events: [{ eventId: randomUUID(), name: "traffic.view", occurredAt: minutesAgo(1) }] }
      const first = yield* ingest(body, { idempotencyKey: key, headers: { "x-api-key": DemoApiKeys.public.key } })
      const replay = yield* ingest(body, { idempotencyKey: key, headers: { "x-api-key": DemoApiKeys.public.key } })
      expect(first.status).toBe(202)
      expect(replay.text).toBe(first.text)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      const other = yield* ingest({ ...body, events: [{}] }, { idempotencyKey: key, headers: { "x-api-key": DemoApiKeys.public.key } })
      expectProblem(other, 409, "idempotency-key-reuse")
    }))

  it.effect("refuses a bad context token (400), an expired one (401), a bad batch (400) and a key without public:read (403)", () =>
    Effect.gen(function*() {
      const event = { eventId: randomUUID(), name: "traffic.view", occurredAt: minutesAgo(1) }
      const token = contextToken()
      const tampered = yield* ingest({ contextToken: token.slice(0, -2) + (token.endsWith("A") ? "BB" : "AA"), events: [event] })
      expectProblem(tampered, 400, "invalid-context-token")
      expect(tampered.body.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/contextToken" })])
      expectProblem(yield* ingest({ contextToken: "x".repeat(40), events: [event] }), 400, "invalid-context-token")
      expectProblem(yield* ingest({ contextToken: "short", events: [event] }), 400, "invalid-request")
      const expired = contextToken({ exp: TestEpoch.getTime() / 1000 })
      expectProblem(yield* ingest({ contextToken: expired, events: [event] }), 401, "context-token-expired")
      expectProblem(yield* ingest({ contextToken: token, events: [] }), 400, "invalid-request")
      expectProblem(yield* ingest({ contextToken: token, events: Array(26).fill(event) }), 400, "invalid-request")
      expectProblem(yield* ingest({ contextToken: token, events: [event], extra: 1 }), 400, "invalid-request")
      const agentsOnly = yield* ingest({ contextToken: token, events: [event] }, { headers: { "x-api-key": DemoApiKeys.agentsOnly.key } })
      expectProblem(agentsOnly, 403, "insufficient-scope")
      expectProblem(yield* ingest({ contextToken: token, events: [event] }, { headers: { "x-api-key": "adk_nope" } }), 401)
    }))
})

const small = makeTestServer({ budgets: { ...testConfig().budgets, anonymous: { limit: 20, windowSeconds: 60 } } })

layer(small.layer)("Social_IngestProductEvent: budget", (it) => {
  it.effect("costs 10: the third anonymous batch in a 20-unit window gets 429", () =>
    Effect.gen(function*() {
      const body = () => ({ contextToken: contextToken(), events: [{ eventId: randomUUID(), name: "traffic.view", occurredAt: minutesAgo(1) }] })
      expect((yield* ingest(body())).status).toBe(202)
      expect((yield* ingest(body())).status).toBe(202)
      const refused = yield* ingest(body())
      expectProblem(refused, 429, "rate-limited")
      expect(refused.headers["retry-after"]).toMatch(/^\d+$/)
    }))
})
