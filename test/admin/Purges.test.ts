/**
 * The purge cron jobs on the durable engine (src/admin/Purges.ts): at their hourly
 * occurrence they delete expired idempotency records and expired or long-revoked
 * sessions, and nothing else; daily, the engine's own rows of work finished more than
 * 14 days ago.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { IdempotencyRetentionMs } from "../../layers/Idempotency.js"
import { RevokedSessionRetentionMs } from "../../src/admin/Purges.js"
import { DemoConversations } from "../../demo/runtime/data.js"
import { awaitRun } from "../runtime/support.js"
import { call, type Session, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { pause } from "../support/time.js"
import { until, waitFor } from "../support/waitFor.js"

const server = makeTestServer()

layer(server.layer)("purges", (it) => {
  it.effect("at :17 and :23 each hour they delete expired idempotency records and expired or long-revoked sessions, nothing else", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const at = server.clock.unsafeCurrentTimeMillis()
      const ago = (ms: number) => new Date(at - ms)
      const hour = 3_600_000
      const day = 24 * hour
      const keys = { old: "00000000-0000-4000-8000-00000000a001", fresh: "00000000-0000-4000-8000-00000000a002" }
      for (const [key, createdAt] of [[keys.old, ago(IdempotencyRetentionMs + hour)], [keys.fresh, ago(hour)]] as const) {
        yield* sql`INSERT INTO idempotency_records (principal, operation_id, idempotency_key, fingerprint, status, body, created_at)
                   VALUES ('purge-test', 'Test_Op', ${key}, 'f', 200, '{}', ${createdAt})`
      }
      const [account] = yield* sql<{ id: string }>`SELECT id FROM accounts ORDER BY id LIMIT 1`
      const sessions = {
        expired: { id: "00000000-0000-4000-8000-00000000b001", expires: ago(1), revoked: null },
        longRevoked: { id: "00000000-0000-4000-8000-00000000b002", expires: ago(-day), revoked: ago(RevokedSessionRetentionMs + hour) },
        recentlyRevoked: { id: "00000000-0000-4000-8000-00000000b003", expires: ago(-day), revoked: ago(hour) },
        live: { id: "00000000-0000-4000-8000-00000000b004", expires: ago(-day), revoked: null }
      }
      for (const [name, s] of Object.entries(sessions)) {
        yield* sql`INSERT INTO sessions (id, account_id, token_hash, csrf_hash, created_at, authenticated_at, last_seen_at, expires_at, revoked_at)
                   VALUES (${s.id}, ${account!.id}, ${Buffer.from(`purge-${name}`)}, ${Buffer.from("c")},
                           ${ago(40 * day)}, ${ago(40 * day)}, ${ago(hour)}, ${s.expires}, ${s.revoked})`
      }
      const purgeTime = new Date(at + hour)
      const live = sql<{ n: number }>`SELECT count(*)::int AS n FROM sessions WHERE expires_at > ${purgeTime} AND revoked_at IS NULL`
      const liveBefore = (yield* live)[0]!.n
      const records = sql<{ k: string }>`SELECT idempotency_key::text AS k FROM idempotency_records WHERE principal = 'purge-test' ORDER BY k`
      const left = sql<{ id: string }>`SELECT id::text AS id FROM sessions WHERE ${sql.in("id", Object.values(sessions).map((s) => s.id))} ORDER BY id`

      // before their minute nothing is deleted
      server.clock.advance(16 * 60_000)
      yield* pause(500)
      expect((yield* records).map((r) => r.k)).toEqual([keys.old, keys.fresh])
      expect((yield* left)).toHaveLength(4)

      server.clock.advance(hour - 16 * 60_000) // past :17 and :23
      yield* waitFor(
        "the purges",
        until(Effect.all([records, left]), ([r, l]) => r.length <= 1 && l.length <= 2, ([r, l]) => `${r.length} records, ${l.length} sessions`),
        10_000,
        25
      )
      expect((yield* records).map((r) => r.k)).toEqual([keys.fresh])
      expect((yield* left).map((r) => r.id)).toEqual([sessions.recentlyRevoked.id, sessions.live.id])
      // the demo data's sessions still live at purge time survive
      expect((yield* live)[0]!.n).toBe(liveBefore)
    }))

  it.effect("daily at 03:41 the engine's rows of executions finished more than 14 days ago are cleared, not younger ones", () =>
    Effect.gen(function*() {
      const day = 24 * 3_600_000
      const executions = (admin: Session) =>
        Effect.map(call("GET", "/api/v1/admin/jobs?limit=100", { session: admin }), (r) =>
          (r.body.data as ReadonlyArray<{ workflow: string; payload: { runId?: string } }>)
            .filter((e) => e.workflow === "AgentRun").map((e) => e.payload.runId))
      const send = (content: string) =>
        Effect.gen(function*() {
          const sent = yield* call("POST", `/api/v1/conversations/${DemoConversations.chat.id}/messages`, {
            session: yield* signIn("member"),
            body: { content }
          })
          expect(sent.status, sent.text).toBe(202)
          const runId: string = sent.body.data.run.id
          yield* awaitRun(runId)
          return runId
        })
      const old = yield* send("an old question")
      server.clock.advance(10 * day) // the purge that was due meanwhile runs late: nothing is 14 days old yet
      const recent = yield* send("a recent question")
      expect(yield* executions(yield* signIn("admin"))).toEqual(expect.arrayContaining([old, recent]))

      server.clock.advance(5 * day) // the next 03:41 has come: the old one is 15 days old, the recent one 5
      const left = yield* waitFor(
        "the old execution purged",
        until(Effect.flatMap(signIn("admin"), executions), (left) => !left.includes(old)),
        20_000,
        25
      )
      expect(left).not.toContain(old)
      expect(left).toContain(recent)
    }))
})
