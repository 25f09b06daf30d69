/**
 * Runtime_StreamRunEvents through the HTTP stack: a run's events as
 * Server-Sent Events in seq order, resumable with Last-Event-ID, ending when the run is
 * finished, with heartbeats, a bounded duration and a bounded number of streams per process.
 * The runs are written by hand (their events appended with `appendRunEvent`, as the run
 * pipeline does) except one real run started with Runtime_SendMessage.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DefaultRunEventsOptions } from "../../src/runtime/Config.js"
import { DemoRuns, DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { eventsOf, openSse, parseSse } from "../support/sse.js"
import { makeTestServer } from "../support/TestServer.js"
import { append, delta, finish, insertRun, stateEvent } from "./runEventFixtures.js"
import { awaitRun, insertConversation } from "./support.js"
import { until, waitFor } from "../support/waitFor.js"

const MaxStreams = 2
const server = makeTestServer({
  runEvents: { ...DefaultRunEventsOptions, heartbeatMs: 200, maxStreamMs: 5000, maxStreams: MaxStreams, pollMs: 100, fallbackPollMs: 1000 }
})
const path = (runId: string) => `/api/v1/runs/${runId}/events`
const message = "0000000e-0000-7000-8000-000000000001"

/** A run of the configured demo agent (visible to the Acme members) in `state`, with no conversation. */
const newRun = (state = "RUNNING") => insertRun(DemoRuntimeAgents.configured, null, state)

layer(server.layer)("Runtime_StreamRunEvents", (it) => {
  it.effect("a finished run: retry, then every event in seq order (id = seq, event = kind, data = JSON), then the end", () =>
    Effect.gen(function*() {
      const run = yield* newRun()
      yield* append(run, stateEvent(run, "RUNNING", 2), delta(message, "Hello"), delta(message, ", world"))
      yield* append(run, { kind: "message.completed", data: { messageId: message, state: "COMPLETE" } },
        { kind: "usage", data: { inputTokens: 12, outputTokens: 3, costMicroUsd: null } })
      yield* finish(run)
      const stream = yield* openSse(path(run), { session: yield* signIn("member") })
      expect(stream.status).toBe(200)
      expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/)
      expect(stream.headers["cache-control"]).toBe("no-store, no-transform")
      const items = yield* stream.end()
      expect(items[0]).toEqual({ _tag: "retry", ms: 1000 })
      expect(eventsOf(items)).toEqual([
        { id: "1", event: "run.state", data: { runId: run, state: "RUNNING", version: 2, failureCode: null } },
        { id: "2", event: "message.delta", data: { messageId: message, delta: "Hello" } },
        { id: "3", event: "message.delta", data: { messageId: message, delta: ", world" } },
        { id: "4", event: "message.completed", data: { messageId: message, state: "COMPLETE" } },
        { id: "5", event: "usage", data: { inputTokens: 12, outputTokens: 3, costMicroUsd: null } },
        { id: "6", event: "run.state", data: { runId: run, state: "SUCCEEDED", version: 2, failureCode: null } }
      ])
    }).pipe(Effect.scoped))

  it.effect("Last-Event-ID: only the later events; a finished run with nothing after it answers 204", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      const run = yield* newRun()
      yield* append(run, delta(message, "a"), delta(message, "b"), delta(message, "c"))
      yield* finish(run)
      const rest = yield* openSse(path(run), { session: member, lastEventId: "2" })
      expect(eventsOf(yield* rest.end()).map((e) => e.id)).toEqual(["3", "4"])
      const none = yield* call("GET", path(run), { session: member, headers: { "last-event-id": "4" } })
      expect(none.status).toBe(204)
      expect(none.text).toBe("")
      // a finished run that never had an event: nothing to follow either
      expect((yield* call("GET", path(yield* newRun("FAILED")), { session: member })).status).toBe(204)
    }).pipe(Effect.scoped))

  it.effect("live: events appended while following arrive in order; the stream ends once the finished run's last event is sent", () =>
    Effect.gen(function*() {
      const run = yield* newRun()
      yield* append(run, stateEvent(run, "RUNNING", 2))
      const stream = yield* openSse(path(run), { session: yield* signIn("owner") })
      yield* stream.until("the first event", (items) => eventsOf(items).length === 1)
      yield* append(run, delta(message, "one"))
      yield* stream.until("the delta", (items) => eventsOf(items).length === 2)
      yield* append(run, delta(message, " two"), delta(message, " three"))
      yield* finish(run)
      const events = eventsOf(yield* stream.end())
      expect(events.map((e) => e.id)).toEqual(["1", "2", "3", "4", "5"])
      expect(events.map((e) => e.event)).toEqual(["run.state", "message.delta", "message.delta", "message.delta", "run.state"])
      expect(events.slice(1, 4).map((e) => (e.data as { delta: string }).delta).join("")).toBe("one two three")
    }).pipe(Effect.scoped))

  it.effect("heartbeat: a keep-alive comment while no event comes; a run finished without an event still ends the stream", () =>
    Effect.gen(function*() {
      const run = yield* newRun()
      const stream = yield* openSse(path(run), { session: yield* signIn("member") })
      yield* stream.until("a heartbeat", (items) => items.some((i) => i._tag === "comment" && i.text === "keep-alive"))
      expect(eventsOf(stream.items)).toEqual([])
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE runs SET state = 'CANCELLED' WHERE id = ${run}`
      expect(eventsOf(yield* stream.end())).toEqual([])
    }).pipe(Effect.scoped))

  it.effect("bounded duration: the server ends a stream after maxStreamMs; the client resumes with Last-Event-ID", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      const run = yield* newRun()
      yield* append(run, delta(message, "x"))
      const first = yield* openSse(path(run), { session: member })
      const items = yield* first.end(15_000)
      expect(eventsOf(items).map((e) => e.id)).toEqual(["1"])
      // the run is still RUNNING: the stream was ended by its bound, not by the run
      yield* append(run, delta(message, "y"))
      yield* finish(run)
      const resumed = yield* openSse(path(run), { session: member, lastEventId: "1" })
      expect(eventsOf(yield* resumed.end()).map((e) => e.id)).toEqual(["2", "3"])
    }).pipe(Effect.scoped))

  it.effect("bounded streams per process: one more is 503 stream-limit-reached with Retry-After; a closed one frees its place", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      const run = yield* newRun()
      const open = yield* Effect.forEach(Array.from({ length: MaxStreams }), () => openSse(path(run), { session: member }))
      for (const s of open) expect(s.status).toBe(200)
      const refused = yield* call("GET", path(run), { session: member })
      expectProblem(refused, 503, "stream-limit-reached")
      expect(refused.headers["retry-after"]).toBe("5")
      yield* open[0]!.close
      // the server notices the closed connection: a new stream is served again
      const again = yield* waitFor(
        "a stream served again",
        until(Effect.flatMap(openSse(path(run), { session: member }), (reply) => Effect.as(reply.close, reply.status)), (status) => status === 200),
        5_000,
        50
      )
      expect(again).toBe(200)
      yield* finish(run)
    }).pipe(Effect.scoped))

  it.effect("a real run (Runtime_SendMessage): the stream ends once it is SUCCEEDED, with exactly the run's stored events", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      const conversation = yield* insertConversation(DemoRuntimeAgents.configured, "member", "CHAT")
      const sent = yield* call("POST", `/api/v1/conversations/${conversation}/messages`, { body: { content: "Follow me" }, session: member })
      expect(sent.status, sent.text).toBe(202)
      const runId: string = sent.body.data.run.id
      const stream = yield* openSse(path(runId), { session: member })
      // 204: the run was already finished without an event (a pipeline that writes none) when the stream was asked for
      expect([200, 204]).toContain(stream.status)
      const events = eventsOf(yield* stream.end())
      expect((yield* awaitRun(runId)).state).toBe("SUCCEEDED")
      const sql = yield* SqlClient.SqlClient
      const stored = yield* sql<{ seq: string; kind: string; data: unknown }>`
        SELECT seq::text AS seq, kind, data FROM run_events WHERE run_id = ${runId} ORDER BY seq`
      expect(events).toEqual(stored.map((e) => ({ id: e.seq, event: e.kind, data: e.data })))
    }).pipe(Effect.scoped))

  it.effect("a run whose playground data was cleared: its message.delta events are left out", () =>
    Effect.gen(function*() {
      const run = yield* newRun()
      yield* append(run, stateEvent(run, "RUNNING", 2), delta(message, "secret"))
      yield* finish(run)
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE runs SET data_cleared_at = ${new Date()} WHERE id = ${run}`
      const reply = yield* call("GET", path(run), { session: yield* signIn("member") })
      expect(reply.status).toBe(200)
      expect(reply.text).not.toContain("secret")
      expect(eventsOf(parseSse(reply.text)).map((e) => e.id)).toEqual(["1", "3"])
    }))

  it.effect("404 run-not-found: unknown, or its agent not operated by a workspace of the caller; 401 without a session", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("GET", path(randomUUID()), { session: yield* signIn("member") }), 404, "run-not-found")
      const foreign = yield* call("GET", path(DemoRuns[0].id), { session: yield* signIn("outsider") })
      expectProblem(foreign, 404, "run-not-found")
      expectProblem(yield* call("GET", path(DemoRuns[0].id)), 401, "unauthenticated")
    }))

  it.effect("400: a Last-Event-ID that is not a non-negative integer, a runId that is not a uuid", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      for (const value of ["abc", "-1", "1.5"]) {
        expectProblem(yield* call("GET", path(DemoRuns[0].id), { session: member, headers: { "last-event-id": value } }), 400, "invalid-request")
      }
      expectProblem(yield* call("GET", path("not-a-uuid"), { session: member }), 400)
    }))
})
