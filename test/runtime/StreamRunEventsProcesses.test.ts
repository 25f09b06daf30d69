/**
 * Runtime_StreamRunEvents across server processes: two real server
 * processes (`bin/main.ts`) on one PostgreSQL database. A client connected to process B
 * follows runs whose events are written elsewhere: by another process (this one, with
 * `appendRunEvent`, as a runner does) and by a real run sent through process A. B wakes on
 * `LISTEN run_events` only: its safety-net poll is set to an hour, so a stream that got its
 * events in time got them from notifications. Resuming with Last-Event-ID, on either
 * process, gets only the rest.
 *
 * PostgreSQL only: the embedded database is one process's (no second process can open it).
 */
import { FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { query } from "../support/engineCluster.js"
import { call, signIn } from "../support/http.js"
import { against, spawnServer } from "../support/serverProcesses.js"
import { eventsOf, openSse } from "../support/sse.js"
import { cloneTemplate } from "../support/TestServer.js"
import { append, delta, finish, insertRun, stateEvent } from "./runEventFixtures.js"
import { insertConversation } from "./support.js"
import { databaseUrl, onPostgres } from "../support/database.js"
import { waitFor } from "../support/waitFor.js"

const message = "0000000e-0000-7000-8000-000000000002"

/** A clone of the seeded template, dropped (sessions and all) when the scope closes. */
const seededDatabase = Effect.acquireRelease(cloneTemplate(), (url) =>
  query(databaseUrl, `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`).pipe(Effect.ignore))

describe.skipIf(!onPostgres)("Runtime_StreamRunEvents across server processes (PostgreSQL)", () => {
  it.live("a client of process B follows runs written by other processes through the end; Last-Event-ID resumes on either", () =>
    Effect.gen(function*() {
      const url = yield* seededDatabase
      const env = { RUN_EVENTS_FALLBACK_POLL_MS: "3600000" }
      // one after the other: each creates the engine's tables when it starts
      const a = yield* spawnServer("A", url, env)
      const b = yield* spawnServer("B", url, env)
      const db = PgClient.layer({ url: Redacted.make(url), maxConnections: 4 })
      const sqlHere = <X, E, R>(effect: Effect.Effect<X, E, R>) => Effect.provide(effect, db)

      // 1. events written by another process (this one) while B's client follows
      const run = yield* sqlHere(insertRun(DemoRuntimeAgents.configured, null, "RUNNING", "0000000f"))
      const memberOnB = yield* against(b)(signIn("member"))
      const stream = yield* against(b)(openSse(`/api/v1/runs/${run}/events`, { session: memberOnB }))
      expect(stream.status).toBe(200)
      yield* stream.until("the stream's start", (items) => items.length > 0, 60_000)
      yield* sqlHere(append(run, stateEvent(run, "RUNNING", 2), delta(message, "Hello")))
      yield* stream.until("the first two events", (items) => eventsOf(items).length === 2, 60_000)
      yield* sqlHere(append(run, delta(message, " from"), delta(message, " elsewhere")))
      yield* sqlHere(finish(run))
      const events = eventsOf(yield* stream.end(60_000))
      expect(events.map((e) => e.id)).toEqual(["1", "2", "3", "4", "5"])
      expect(events.map((e) => e.event)).toEqual(["run.state", "message.delta", "message.delta", "message.delta", "run.state"])
      expect(events[4]!.data).toEqual({ runId: run, state: "SUCCEEDED", version: 2, failureCode: null })

      // resuming, on B and on A: only the rest; nothing after the last event of a finished run: 204
      const rest = yield* against(b)(openSse(`/api/v1/runs/${run}/events`, { session: memberOnB, lastEventId: "3" }))
      expect(eventsOf(yield* rest.end(60_000)).map((e) => e.id)).toEqual(["4", "5"])
      const memberOnA = yield* against(a)(signIn("member"))
      const restOnA = yield* against(a)(openSse(`/api/v1/runs/${run}/events`, { session: memberOnA, lastEventId: "1" }))
      expect(eventsOf(yield* restOnA.end(60_000)).map((e) => e.id)).toEqual(["2", "3", "4", "5"])
      expect((yield* against(a)(call("GET", `/api/v1/runs/${run}/events`, { session: memberOnA, headers: { "last-event-id": "5" } }))).status)
        .toBe(204)

      // 2. a real run, sent through A (run by whichever runner owns its shard), followed on B to its end
      const conversation = yield* sqlHere(insertConversation(DemoRuntimeAgents.configured, "member", "CHAT"))
      const sent = yield* against(a)(call("POST", `/api/v1/conversations/${conversation}/messages`, {
        body: { content: "Across processes" },
        session: memberOnA
      }))
      expect(sent.status, sent.text).toBe(202)
      const runId: string = sent.body.data.run.id
      const followed = yield* against(b)(openSse(`/api/v1/runs/${runId}/events`, { session: memberOnB }))
      // 204: the run had already finished without an event when B was asked (a pipeline that writes none)
      expect([200, 204]).toContain(followed.status)
      yield* waitFor("the run's end", sqlHere(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.map(sql<{ state: string }>`SELECT state FROM runs WHERE id = ${runId}`, ([r]) =>
          r!.state === "SUCCEEDED" ? true : undefined))), 120_000)
      // a run pipeline that writes no events notifies no one of its end: notify as its last event would
      // (once the pipeline appends its run.state event, this is one more, harmless notification)
      yield* sqlHere(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT pg_notify('run_events', ${runId})`))
      const got = eventsOf(yield* followed.end(60_000))
      const stored = yield* sqlHere(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ seq: string; kind: string; data: unknown }>`SELECT seq::text AS seq, kind, data FROM run_events
                                                        WHERE run_id = ${runId} ORDER BY seq`))
      expect(got).toEqual(stored.map((e) => ({ id: e.seq, event: e.kind, data: e.data })))
    }).pipe(Effect.scoped, Effect.provide(Layer.mergeAll(FetchHttpClient.layer))), 400_000)
})
