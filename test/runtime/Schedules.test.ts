/**
 * Agent schedules through the HTTP stack: Runtime_CreateAgentSchedule,
 * Runtime_ListAgentSchedules, Runtime_DeleteAgentSchedule, and their firing
 * (`ScheduleFiring.fireDue` called with controlled instants): the fired instants are
 * the preview's (DST included), one run per occurrence, skips, missed occurrences,
 * deleted / disabled / retired schedules. The firing through the real cron is in
 * SchedulesCron.test.ts.
 */
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { IdsSequence } from "../../layers/Ids.js"
import { DemoAccounts, type DemoAccountName } from "../../src/accounts/demo.js"
import { DemoRuntimeAgents } from "../../src/runtime/demo.js"
import { ScheduleFiring } from "../../src/runtime/schedules/ScheduleFiring.js"
import { DemoSchedules } from "../../src/runtime/schedulesDemo.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { awaitRun, messageRows, scriptedRuntime } from "./support.js"
import { onPostgres } from "../support/database.js"

const scripted = scriptedRuntime()
const server = makeTestServer({}, { runtime: scripted.layer })
/** The firing service on the test server's database and engine (its own id sequence). */
const firing = ScheduleFiring.Default.pipe(Layer.provide(IdsSequence("0000000d")))

const schedulesPath = (agent: string) => `/api/v1/agents/${agent}/schedules`

const create = (body: unknown, account: DemoAccountName = "owner", agent: string = DemoRuntimeAgents.configured, options: CallOptions = {}) =>
  Effect.gen(function*() {
    return yield* call("POST", schedulesPath(agent), { body, session: yield* signIn(account), ...options })
  })

const created = (body: Record<string, unknown>, account: DemoAccountName = "owner", agent: string = DemoRuntimeAgents.configured) =>
  Effect.gen(function*() {
    const reply = yield* create(body, account, agent)
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data as { id: string; conversationId: string; nextOccurrenceAt: string | null; version: number }
  })

const list = (account: DemoAccountName, query = "", agent: string = DemoRuntimeAgents.configured) =>
  Effect.gen(function*() {
    return yield* call("GET", `${schedulesPath(agent)}${query}`, { session: yield* signIn(account) })
  })

const remove = (scheduleId: string, body: unknown, account: DemoAccountName = "owner", agent: string = DemoRuntimeAgents.configured) =>
  Effect.gen(function*() {
    return yield* call("DELETE", `${schedulesPath(agent)}/${scheduleId}`, { body, session: yield* signIn(account) })
  })

const preview = (body: Record<string, unknown>) =>
  Effect.gen(function*() {
    const reply = yield* call("POST", `${schedulesPath(DemoRuntimeAgents.configured)}/preview`, { body, session: yield* signIn("member") })
    expect(reply.status, reply.text).toBe(200)
    return reply.body.data as { timezone: string; occurrences: Array<string> }
  })

/** Fires what is due at `at`; returns the firings of `scheduleId` only (others' schedules may be due too). */
const fire = (at: string | Date, scheduleId?: string) =>
  Effect.gen(function*() {
    const service = yield* ScheduleFiring
    const fired = yield* service.fireDue(new Date(at))
    return fired.filter((f) => scheduleId === undefined || f.scheduleId === scheduleId)
  }).pipe(Effect.orDie)

/** Moves the schedule's next occurrence (a fixture: as if it had been created before `at`). */
const setNext = (scheduleId: string, at: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE agent_schedules SET next_occurrence_at = ${new Date(at)} WHERE id = ${scheduleId}`)
    .pipe(Effect.orDie)

const scheduleRow = (scheduleId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ nextOccurrenceAt: string | null; lastFiredAt: string | null; lastRunId: string | null; version: number }>`
      SELECT api_ts(next_occurrence_at) AS "nextOccurrenceAt", api_ts(last_fired_at) AS "lastFiredAt",
        last_run_id AS "lastRunId", version::int AS version
      FROM agent_schedules WHERE id = ${scheduleId}`
    return row!
  }).pipe(Effect.orDie)

const scheduleRuns = (scheduleId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string; triggerType: string; conversationId: string }>`
      SELECT id, trigger_type AS "triggerType", conversation_id AS "conversationId" FROM runs
      WHERE schedule_id = ${scheduleId} ORDER BY created_at, id`).pipe(Effect.orDie)

const firingRows = (scheduleId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ occurrenceAt: string; outcome: string; runId: string | null }>`
      SELECT api_ts(occurrence_at) AS "occurrenceAt", outcome, run_id AS "runId" FROM agent_schedule_firings
      WHERE schedule_id = ${scheduleId} ORDER BY occurrence_at`).pipe(Effect.orDie)

const scheduleKeys = [
  "conversationId", "createdAt", "cronExpression", "enabled", "entityPublicId", "id", "lastFiredAt", "lastRunId", "message",
  "nextOccurrenceAt", "timezone", "title", "updatedAt", "version"
]

const at = TestEpoch.toISOString()

layer(Layer.provideMerge(firing, server.layer), { timeout: 120_000 })("Runtime agent schedules", (it) => {
  it.effect("201: the schedule (canonical zone, next occurrence as the preview shows it), Location, its own CHAT conversation; a replay answers the same", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const body = { cronExpression: " 30 9 * * 1-5 ", timezone: "europe/berlin", message: "Summarize the news.", title: "Morning" }
      const reply = yield* call("POST", schedulesPath(DemoRuntimeAgents.configured), { body, session: owner, idempotencyKey: key })
      expect(reply.status, reply.text).toBe(201)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      const schedule = reply.body.data
      expect(Object.keys(schedule).sort()).toEqual(scheduleKeys)
      const { occurrences } = yield* preview({ cronExpression: "30 9 * * 1-5", timezone: "Europe/Berlin", count: 1, from: at })
      expect(schedule).toEqual({
        id: schedule.id, entityPublicId: DemoRuntimeAgents.configured, cronExpression: "30 9 * * 1-5",
        timezone: "Europe/Berlin", message: "Summarize the news.", title: "Morning", enabled: true,
        nextOccurrenceAt: occurrences[0], lastFiredAt: null, lastRunId: null, conversationId: schedule.conversationId,
        version: 1, createdAt: at, updatedAt: at
      })
      expect(schedule.nextOccurrenceAt).toBe("2026-06-01T07:30:00.000Z")
      expect(reply.headers["location"]).toBe(`/api/v1/agents/${DemoRuntimeAgents.configured}/schedules/${schedule.id}`)

      const sql = yield* SqlClient.SqlClient
      const [conversation] = yield* sql<{ agentId: string; accountId: string; kind: string; title: string | null }>`
        SELECT agent_id AS "agentId", account_id AS "accountId", kind, title FROM conversations WHERE id = ${schedule.conversationId}`
      expect(conversation).toEqual({ agentId: DemoRuntimeAgents.configured, accountId: DemoAccounts.owner.id, kind: "CHAT", title: "Morning" })

      const replay = yield* call("POST", schedulesPath(DemoRuntimeAgents.configured), { body, session: owner, idempotencyKey: key })
      expect(replay.status).toBe(201)
      expect(replay.body.data).toEqual(schedule)
      expect(replay.headers["location"]).toBe(reply.headers["location"])
    }))

  it.effect("201 disabled: no next occurrence, and it never fires", () =>
    Effect.gen(function*() {
      const schedule = yield* created({ cronExpression: "* * * * *", timezone: "UTC", message: "tick", enabled: false }, "member")
      expect(schedule.nextOccurrenceAt).toBeNull()
      expect(yield* fire("2030-01-01T00:00:00Z", schedule.id)).toEqual([])
      expect(yield* scheduleRuns(schedule.id)).toEqual([])
    }))

  it.effect("400 naming /cronExpression or /timezone as the preview does; strict body; Idempotency-Key required", () =>
    Effect.gen(function*() {
      const base = { cronExpression: "0 9 * * *", timezone: "UTC", message: "hi" }
      for (const cronExpression of ["0 9 * *", "61 9 * * *", "0 0 30 2 *", "not a cron"]) {
        const reply = yield* create({ ...base, cronExpression })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/cronExpression"])
      }
      const zone = yield* create({ ...base, timezone: "Mars/Olympus_Mons" })
      expectProblem(zone, 400, "invalid-request")
      expect(zone.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/timezone"])
      expect(zone.text).not.toContain("Olympus")
      for (const body of [{ ...base, message: "" }, { ...base, extra: 1 }, { ...base, enabled: "yes" }, { timezone: "UTC", message: "x" }]) {
        expectProblem(yield* create(body), 400)
      }
      expectProblem(yield* create(base, "owner", DemoRuntimeAgents.configured, { idempotencyKey: null }), 400, "idempotency-key-required")
    }))

  it.effect("400 naming /cronExpression for sub-minute and non-crontab forms; 201 for the crontab(5) macros", () =>
    Effect.gen(function*() {
      const base = { timezone: "UTC", message: "hi", enabled: false }
      for (const cronExpression of ["@secondly", "@minutely", "@weekdays", "@every 1s", "* * * * * *", "*/10 * * * * *"]) {
        const reply = yield* create({ ...base, cronExpression })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors.map((e: { pointer: string }) => e.pointer), cronExpression).toEqual(["/cronExpression"])
      }
      for (const cronExpression of ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]) {
        const reply = yield* create({ ...base, cronExpression })
        expect(reply.status, reply.text).toBe(201)
        expect(reply.body.data.cronExpression).toBe(cronExpression)
      }
      const hourly = yield* created({ cronExpression: " @hourly ", timezone: "UTC", message: "hi" })
      expect(hourly.nextOccurrenceAt).toBe("2026-06-01T01:00:00.000Z")
      expect((yield* remove(hourly.id, { expectedVersion: 1 })).status).toBe(200)
    }))

  it.effect("a stored expression that is not a schedule (saved before the rule) fires its due occurrence, then never again", () =>
    Effect.gen(function*() {
      const schedule = yield* created({ cronExpression: "@hourly", timezone: "UTC", message: "legacy" })
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE agent_schedules SET cron_expression = '@secondly' WHERE id = ${schedule.id}`.pipe(Effect.orDie)
      yield* setNext(schedule.id, "2026-08-02T09:00:00.000Z")
      const fired = yield* fire("2026-08-02T09:00:00.500Z", schedule.id)
      expect(fired.map((f) => [f.outcome, f.next])).toEqual([["STARTED", null]])
      expect((yield* awaitRun(fired[0]!.runId!)).state).toBe("SUCCEEDED")
      expect((yield* scheduleRow(schedule.id)).nextOccurrenceAt).toBeNull()
      expect(yield* fire("2026-08-02T09:00:05.000Z", schedule.id)).toEqual([])
      expect(yield* scheduleRuns(schedule.id)).toHaveLength(1)
    }))

  it.effect("403 role-required for a VIEWER (before the body's rules); 404 for another workspace's, a directory-only or an unknown agent; 422 without a runtime", () =>
    Effect.gen(function*() {
      const base = { cronExpression: "0 9 * * *", timezone: "UTC", message: "hi" }
      expectProblem(yield* create(base, "admin"), 403, "role-required")
      expectProblem(yield* create({ ...base, cronExpression: "not a cron" }, "admin"), 403, "role-required")
      expectProblem(yield* create(base, "owner", DemoRuntimeAgents.foreign), 404, "agent-not-found")
      expectProblem(yield* create(base, "owner", DemoRuntimeAgents.unoperated), 404, "agent-not-found")
      expectProblem(yield* create(base, "owner", randomUUID()), 404, "agent-not-found")
      expectProblem(yield* create(base, "owner", DemoRuntimeAgents.unconfigured), 422, "configuration-missing")
      expectProblem(yield* call("POST", schedulesPath(DemoRuntimeAgents.configured), { body: base }), 401, "unauthenticated")
    }))

  it.effect("list: every role reads, oldest first, signed cursor pages bound to the caller; 404 for others", () =>
    Effect.gen(function*() {
      const first = yield* list("admin")
      expect(first.status, first.text).toBe(200)
      expect(first.headers["cache-control"]).toBe("private, no-cache")
      expectMeta(first)
      const all = first.body.data as Array<{ id: string; createdAt: string }>
      expect(all[0]).toMatchObject({
        id: DemoSchedules.digest.id, title: "Weekly market digest", enabled: false, nextOccurrenceAt: null, timezone: "Europe/Berlin"
      })
      expect(all.map((s) => s.id)).toContain(DemoSchedules.cleanup.id)
      expect(first.body.nextCursor).toBeNull()
      for (const s of all) expect(Object.keys(s).sort()).toEqual(scheduleKeys)

      const seen: Array<string> = []
      let cursor: string | null = null
      do {
        const page: { body: { data: Array<{ id: string }>; nextCursor: string | null }; status: number } =
          yield* list("admin", `?limit=1${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)
        expect(page.status).toBe(200)
        expect(page.body.data.length).toBeLessThanOrEqual(1)
        seen.push(...page.body.data.map((s) => s.id))
        cursor = page.body.nextCursor
      } while (cursor !== null)
      expect(seen).toEqual(all.map((s) => s.id))

      const paged = yield* list("admin", "?limit=1")
      const foreignCursor = yield* list("member", `?limit=1&cursor=${encodeURIComponent(paged.body.nextCursor)}`)
      expectProblem(foreignCursor, 400, "invalid-cursor")
      expectProblem(yield* list("outsider"), 404, "agent-not-found")
      expectProblem(yield* list("owner", "", DemoRuntimeAgents.unoperated), 404, "agent-not-found")
      expectProblem(yield* list("owner", "?limit=0"), 400)
    }))

  it.effect("delete: at the version read (409 version-conflict otherwise); gone from the list, never fires; 404 afterwards and for another agent's id; 403 for a VIEWER", () =>
    Effect.gen(function*() {
      const schedule = yield* created({ cronExpression: "*/5 * * * *", timezone: "UTC", message: "poll" }, "member")
      expectProblem(yield* remove(schedule.id, { expectedVersion: 1 }, "admin"), 403, "role-required")
      expectProblem(yield* remove(schedule.id, { expectedVersion: 1 }, "owner", DemoRuntimeAgents.unconfigured), 404, "schedule-not-found")
      expectProblem(yield* remove(schedule.id, { expectedVersion: 1 }, "outsider"), 404, "agent-not-found")
      expectProblem(yield* remove(schedule.id, { expectedVersion: 2 }), 409, "version-conflict")
      expectProblem(yield* remove(schedule.id, {}), 400)
      expectProblem(yield* remove(schedule.id, { expectedVersion: 1, extra: true }), 400)

      const reply = yield* remove(schedule.id, { expectedVersion: 1 })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toMatchObject({ id: schedule.id, version: 2, nextOccurrenceAt: null })
      expect(reply.body.data.updatedAt).toBe(at)
      expect((yield* list("member")).body.data.map((s: { id: string }) => s.id)).not.toContain(schedule.id)
      expectProblem(yield* remove(schedule.id, { expectedVersion: 2 }), 404, "schedule-not-found")
      expectProblem(yield* remove(randomUUID(), { expectedVersion: 1 }), 404, "schedule-not-found")

      expect(yield* fire("2030-01-01T00:00:00Z", schedule.id)).toEqual([])
      expect(yield* scheduleRuns(schedule.id)).toEqual([])
    }))

  it.effect.skipIf(!onPostgres)("concurrent deletes at one version: one 200, the others 409 or 404 (PostgreSQL: several connections)", () =>
    Effect.gen(function*() {
      const schedule = yield* created({ cronExpression: "0 * * * *", timezone: "UTC", message: "race" })
      const owner = yield* signIn("owner")
      const replies = yield* Effect.all(
        Array.from({ length: 5 }, () =>
          call("DELETE", `${schedulesPath(DemoRuntimeAgents.configured)}/${schedule.id}`, { body: { expectedVersion: 1 }, session: owner })),
        { concurrency: "unbounded" }
      )
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
      for (const r of replies.filter((r) => r.status !== 200)) expect([404, 409]).toContain(r.status)
      expect((yield* scheduleRow(schedule.id)).version).toBe(2)
    }))

  for (const dst of [
    // the local time 02:30 does not exist on 2026-03-29 in Berlin: it fires once at 03:30 CEST
    { name: "Europe/Berlin spring forward", cronExpression: "30 2 * * *", timezone: "Europe/Berlin", from: "2026-03-27T12:00:00Z" },
    // 09:00 local moves from 07:00Z to 08:00Z on 2026-10-25
    { name: "Europe/Berlin fall back", cronExpression: "0 9 * * *", timezone: "Europe/Berlin", from: "2026-10-23T12:00:00Z" },
    // the repeated 01:30 of 2026-11-01 fires once, at its first (EDT) occurrence
    { name: "America/New_York fall back", cronExpression: "30 1 * * *", timezone: "America/New_York", from: "2026-10-30T12:00:00Z" },
    { name: "America/New_York spring forward, every 30 minutes", cronExpression: "*/30 1-3 * * *", timezone: "America/New_York", from: "2026-03-07T12:00:00Z" }
  ]) {
    it.effect(`fires at the preview's instants, one run each (${dst.name})`, () =>
      Effect.gen(function*() {
        const count = 6
        const { occurrences } = yield* preview({ cronExpression: dst.cronExpression, timezone: dst.timezone, count: count + 1, from: dst.from })
        const schedule = yield* created({ cronExpression: dst.cronExpression, timezone: dst.timezone, message: `digest ${dst.name}` })
        yield* setNext(schedule.id, occurrences[0]!)
        const runIds: Array<string> = []
        for (let i = 0; i < count; i++) {
          const due = occurrences[i]!
          // not a millisecond early
          expect(yield* fire(new Date(new Date(due).getTime() - 1), schedule.id)).toEqual([])
          const fired = yield* fire(due, schedule.id)
          expect(fired.map((f) => ({ ...f, occurrenceAt: f.occurrenceAt.toISOString(), next: f.next?.toISOString() })))
            .toEqual([{ scheduleId: schedule.id, occurrenceAt: due, outcome: "STARTED", runId: fired[0]!.runId, next: occurrences[i + 1] }])
          // the same occurrence again fires nothing
          expect(yield* fire(due, schedule.id)).toEqual([])
          runIds.push(fired[0]!.runId!)
          expect((yield* awaitRun(fired[0]!.runId!)).state).toBe("SUCCEEDED")
        }
        expect((yield* firingRows(schedule.id)).map((r) => r.occurrenceAt)).toEqual(occurrences.slice(0, count))
        const runs = yield* scheduleRuns(schedule.id)
        expect(runs.map((r) => r.id)).toEqual(runIds)
        for (const r of runs) expect(r).toMatchObject({ triggerType: "SCHEDULE", conversationId: schedule.conversationId })
        const messages = yield* messageRows(schedule.conversationId)
        expect(messages.filter((m) => m.role === "user").map((m) => m.contentText)).toEqual(Array(count).fill(`digest ${dst.name}`))
        expect(messages.filter((m) => m.role === "assistant").every((m) => m.state === "COMPLETE")).toBe(true)
        expect(yield* scheduleRow(schedule.id)).toEqual({
          nextOccurrenceAt: occurrences[count], lastFiredAt: occurrences[count - 1], lastRunId: runIds[count - 1], version: 1
        })
        const listed = (yield* list("member")).body.data.find((s: { id: string }) => s.id === schedule.id)
        expect(listed).toMatchObject({ lastRunId: runIds[count - 1], lastFiredAt: occurrences[count - 1], nextOccurrenceAt: occurrences[count] })
        expect((yield* remove(schedule.id, { expectedVersion: 1 })).status).toBe(200)
      }))
  }

  it.effect("an occurrence while the schedule's previous run is active is skipped and recorded, never queued", () =>
    Effect.gen(function*() {
      const schedule = yield* created({ cronExpression: "0 * * * *", timezone: "UTC", message: "hourly" })
      yield* setNext(schedule.id, "2026-07-01T10:00:00.000Z")
      scripted.hold()
      const first = yield* fire("2026-07-01T10:00:00.000Z", schedule.id)
      expect(first.map((f) => f.outcome)).toEqual(["STARTED"])
      const skipped = yield* fire("2026-07-01T11:00:00.000Z", schedule.id)
      expect(skipped.map((f) => [f.outcome, f.runId, f.next?.toISOString()])).toEqual([["SKIPPED_RUN_ACTIVE", null, "2026-07-01T12:00:00.000Z"]])
      scripted.release()
      expect((yield* awaitRun(first[0]!.runId!)).state).toBe("SUCCEEDED")
      const third = yield* fire("2026-07-01T12:00:00.000Z", schedule.id)
      expect(third.map((f) => f.outcome)).toEqual(["STARTED"])
      expect((yield* awaitRun(third[0]!.runId!)).state).toBe("SUCCEEDED")
      expect((yield* firingRows(schedule.id)).map((r) => [r.occurrenceAt, r.outcome])).toEqual([
        ["2026-07-01T10:00:00.000Z", "STARTED"],
        ["2026-07-01T11:00:00.000Z", "SKIPPED_RUN_ACTIVE"],
        ["2026-07-01T12:00:00.000Z", "STARTED"]
      ])
      expect((yield* scheduleRuns(schedule.id)).map((r) => r.id)).toEqual([first[0]!.runId, third[0]!.runId])
      // the last run stays the one that ran
      expect((yield* scheduleRow(schedule.id)).lastRunId).toBe(third[0]!.runId)
    }).pipe(Effect.ensuring(Effect.sync(() => scripted.release()))))

  it.effect("missed occurrences (downtime) are not replayed: it fires once, then moves to the next future occurrence", () =>
    Effect.gen(function*() {
      const schedule = yield* created({ cronExpression: "*/5 * * * *", timezone: "UTC", message: "every five" })
      yield* setNext(schedule.id, "2026-08-01T09:00:00.000Z")
      const fired = yield* fire("2026-08-01T12:02:30.000Z", schedule.id)
      expect(fired.map((f) => [f.occurrenceAt.toISOString(), f.outcome, f.next?.toISOString()]))
        .toEqual([["2026-08-01T09:00:00.000Z", "STARTED", "2026-08-01T12:05:00.000Z"]])
      expect(yield* fire("2026-08-01T12:02:30.000Z", schedule.id)).toEqual([])
      expect((yield* awaitRun(fired[0]!.runId!)).state).toBe("SUCCEEDED")
      expect(yield* scheduleRow(schedule.id)).toMatchObject({
        nextOccurrenceAt: "2026-08-01T12:05:00.000Z", lastFiredAt: "2026-08-01T12:02:30.000Z"
      })
      expect(yield* scheduleRuns(schedule.id)).toHaveLength(1)
      expect((yield* remove(schedule.id, { expectedVersion: 1 })).status).toBe(200)
    }))

  it.effect("a retired agent: its schedules stop at the next occurrence (recorded), and create / delete answer 409 invalid-state", () =>
    Effect.gen(function*() {
      const schedule = yield* created({ cronExpression: "0 6 * * *", timezone: "UTC", message: "quote" }, "outsider", DemoRuntimeAgents.foreign)
      const outsider = yield* signIn("outsider")
      const agent = yield* call("GET", `/api/v1/agents/${DemoRuntimeAgents.foreign}`, { session: outsider })
      const retired = yield* call("POST", `/api/v1/agents/${DemoRuntimeAgents.foreign}/retire`, {
        body: { expectedVersion: agent.body.data.version }, session: outsider
      })
      expect(retired.status, retired.text).toBe(200)
      const fired = yield* fire("2026-06-01T06:00:00.000Z", schedule.id)
      expect(fired.map((f) => [f.outcome, f.runId, f.next])).toEqual([["SKIPPED_AGENT_RETIRED", null, null]])
      expect((yield* scheduleRow(schedule.id)).nextOccurrenceAt).toBeNull()
      expect(yield* fire("2030-01-01T00:00:00.000Z", schedule.id)).toEqual([])
      expect(yield* scheduleRuns(schedule.id)).toEqual([])
      expectProblem(
        yield* create({ cronExpression: "0 6 * * *", timezone: "UTC", message: "quote" }, "outsider", DemoRuntimeAgents.foreign),
        409,
        "invalid-state"
      )
      expectProblem(yield* remove(schedule.id, { expectedVersion: 1 }, "outsider", DemoRuntimeAgents.foreign), 409, "invalid-state")
      // the retired agent's schedule is still listed (read-only)
      expect((yield* list("outsider", "", DemoRuntimeAgents.foreign)).body.data.map((s: { id: string }) => s.id)).toEqual([schedule.id])
    }))

  it.effect.skipIf(!onPostgres)(
    "exactly once across concurrent firings on separate connections: one run per schedule and occurrence (PostgreSQL)",
    () =>
      Effect.gen(function*() {
        const schedules = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => created({ cronExpression: "0 */2 * * *", timezone: "UTC", message: `race ${i}` })),
          { concurrency: 1 }
        )
        for (const s of schedules) yield* setNext(s.id, "2026-09-01T00:00:00.000Z")
        // the first firing moves each schedule to 02:00, the second occurrence
        for (const occurrence of ["2026-09-01T00:00:00.000Z", "2026-09-01T02:00:00.000Z"]) {
          const ids = new Set(schedules.map((s) => s.id))
          const results = yield* Effect.all(
            Array.from({ length: 6 }, () => fire(occurrence)),
            { concurrency: "unbounded" }
          )
          const ours = results.flat().filter((f) => ids.has(f.scheduleId))
          expect(ours).toHaveLength(schedules.length)
          expect(new Set(ours.map((f) => f.scheduleId)).size).toBe(schedules.length)
          expect(ours.every((f) => f.outcome === "STARTED" && f.occurrenceAt.toISOString() === occurrence)).toBe(true)
          for (const f of ours) expect((yield* awaitRun(f.runId!)).state).toBe("SUCCEEDED")
        }
        for (const s of schedules) {
          expect((yield* scheduleRuns(s.id)).length).toBe(2)
          expect((yield* firingRows(s.id)).map((r) => r.occurrenceAt)).toEqual(["2026-09-01T00:00:00.000Z", "2026-09-01T02:00:00.000Z"])
        }
      })
  )

  it.effect("a user may also write in the schedule's conversation (its author), and the run of either blocks the other", () =>
    Effect.gen(function*() {
      const schedule = yield* created({ cronExpression: "0 3 * * *", timezone: "UTC", message: "nightly" }, "member")
      yield* setNext(schedule.id, "2026-06-02T03:00:00.000Z")
      scripted.hold()
      const sent = yield* call("POST", `/api/v1/conversations/${schedule.conversationId}/messages`, {
        body: { content: "by hand" }, session: yield* signIn("member")
      })
      expect(sent.status, sent.text).toBe(202)
      const fired = yield* fire("2026-06-02T03:00:00.000Z", schedule.id)
      expect(fired.map((f) => f.outcome)).toEqual(["SKIPPED_RUN_ACTIVE"])
      scripted.release()
      expect((yield* awaitRun(sent.body.data.run.id)).state).toBe("SUCCEEDED")
    }).pipe(Effect.ensuring(Effect.sync(() => scripted.release()))))
})
