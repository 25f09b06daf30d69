/**
 * The durable job runner (issue 6 §4): survival across a stopped runner, atomic
 * enqueue, retries with backoff, dedupe, cron schedules, purges, and two runners
 * sharing the queue (PostgreSQL only).
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Ref, Schedule, Schema } from "effect"
import { makeManualClock } from "../../layers/Clock.js"
import { IdsSequence } from "../../layers/Ids.js"
import { IdempotencyRetentionMs } from "../../layers/Idempotency.js"
import { jobHandler, type JobHandler, JobRunner, JobRunnerLayer, type JobRunnerOptions, type JobSchedule } from "../../layers/JobRunner.js"
import { jobKind, Jobs, JobsLive } from "../../layers/Jobs.js"
import { RevokedSessionRetentionMs } from "../../src/jobs/Purges.js"
import { serviceJobHandlers, serviceJobSchedules } from "../../src/jobs/Runner.js"
import { testConfig } from "../support/config.js"
import { TestDb, TestEpoch } from "../support/TestServer.js"

const clock = makeManualClock(TestEpoch)
const Shared = JobsLive.pipe(Layer.provideMerge(TestDb), Layer.provideMerge(IdsSequence("0000000c")))

const options = testConfig().jobs

/** Runs `use` with a runner of `handlers` that stops when `use` ends. */
const withRunner = <A, E, R, H>(
  handlers: ReadonlyArray<JobHandler<H>>,
  use: (runner: JobRunner["Type"]) => Effect.Effect<A, E, R>,
  overrides: Partial<JobRunnerOptions> = {},
  schedules: ReadonlyArray<JobSchedule> = []
) =>
  Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(JobRunnerLayer(handlers, schedules, { ...options, ...overrides }))
    return yield* use(Context.get(context, JobRunner))
  }))

const jobRow = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ state: string; attempts: number; run_at: Date; last_error: string | null }>`
      SELECT state, attempts, run_at, last_error FROM jobs WHERE id = ${id}`
    return row!
  })

const Note = jobKind("test-note", Schema.Struct({ text: Schema.String }))

// the manual clock drives time: no TestClock
layer(Shared, { excludeTestServices: true })("job runner", (it) => {
  it.effect("a job enqueued while no runner handles it survives the runner's stop and runs on the next runner", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      const seen = yield* Ref.make<ReadonlyArray<string>>([])
      const handlers = [jobHandler(Note, ({ text }) => Ref.update(seen, (xs) => [...xs, text]))]
      const id = yield* withRunner(handlers, (runner) =>
        Effect.gen(function*() {
          const id = yield* jobs.enqueue(Note, { text: "later" }, { runAt: new Date(clock.unsafeCurrentTimeMillis() + 60_000) })
          expect(yield* runner.runDue).toBe(0) // not due yet; then this runner stops
          return Option.getOrThrow(id)
        }))
      clock.advance(60_000)
      yield* withRunner(handlers, (runner) => runner.runDue)
      expect(yield* Ref.get(seen)).toEqual(["later"])
      expect(yield* jobRow(id)).toMatchObject({ state: "succeeded", attempts: 1 })
    }).pipe(Effect.withClock(clock)))

  it.effect("a job whose runner died mid-run runs again on another runner once the lease expires (at least once)", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const jobs = yield* Jobs
      const seen = yield* Ref.make(0)
      const id = Option.getOrThrow(yield* jobs.enqueue(Note, { text: "orphan" }))
      // what a runner that claimed the job and then crashed leaves behind
      const leaseUntil = new Date(clock.unsafeCurrentTimeMillis() + options.leaseMs)
      yield* sql`UPDATE jobs SET state = 'running', attempts = 1, locked_by = 'dead-runner', locked_until = ${leaseUntil} WHERE id = ${id}`
      yield* withRunner([jobHandler(Note, () => Ref.update(seen, (n) => n + 1))], (runner) =>
        Effect.gen(function*() {
          expect(yield* runner.runDue).toBe(0) // the lease still holds
          clock.advance(options.leaseMs + 1)
          expect(yield* runner.runDue).toBe(1)
        }))
      expect(yield* Ref.get(seen)).toBe(1)
      expect(yield* jobRow(id)).toMatchObject({ state: "succeeded", attempts: 2 })
    }).pipe(Effect.withClock(clock)))

  it.effect("enqueue is part of the caller's transaction", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const jobs = yield* Jobs
      const failed = yield* jobs.enqueue(Note, { text: "rolled back" }, { dedupeKey: "tx-test" }).pipe(
        Effect.zipRight(Effect.fail("abort" as const)),
        sql.withTransaction,
        Effect.flip
      )
      expect(failed).toBe("abort")
      const rows = yield* sql`SELECT 1 FROM jobs WHERE dedupe_key = 'tx-test'`
      expect(rows).toHaveLength(0)
    }).pipe(Effect.withClock(clock)))

  it.effect("a dedupe key admits one unfinished job", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      const first = yield* jobs.enqueue(Note, { text: "a" }, { dedupeKey: "once", runAt: new Date(clock.unsafeCurrentTimeMillis() + 1_000) })
      const second = yield* jobs.enqueue(Note, { text: "b" }, { dedupeKey: "once" })
      expect(Option.isSome(first)).toBe(true)
      expect(Option.isNone(second)).toBe(true)
    }).pipe(Effect.withClock(clock)))

  it.effect("a failing job is retried with exponential backoff, then succeeds; the admin view shows the last error", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      const Flaky = jobKind("test-flaky", Schema.Struct({}))
      const calls = yield* Ref.make(0)
      const handlers = [jobHandler(Flaky, () =>
        Ref.updateAndGet(calls, (n) => n + 1).pipe(
          Effect.flatMap((n) => n <= 2 ? Effect.fail(new Error(`boom ${n}`)) : Effect.void)
        ))]
      yield* withRunner(handlers, (runner) =>
        Effect.gen(function*() {
          const id = Option.getOrThrow(yield* jobs.enqueue(Flaky, {}))
          const start = clock.unsafeCurrentTimeMillis()
          expect(yield* runner.runDue).toBe(1)
          const afterFirst = yield* jobRow(id)
          expect(afterFirst).toMatchObject({ state: "pending", attempts: 1, last_error: "Error: boom 1" })
          expect(afterFirst.run_at.getTime()).toBe(start + 10_000)

          clock.advance(9_999)
          expect(yield* runner.runDue).toBe(0)
          clock.advance(1)
          expect(yield* runner.runDue).toBe(1)
          const afterSecond = yield* jobRow(id)
          expect(afterSecond).toMatchObject({ state: "pending", attempts: 2, last_error: "Error: boom 2" })
          expect(afterSecond.run_at.getTime()).toBe(clock.unsafeCurrentTimeMillis() + 20_000) // doubled

          clock.advance(20_000)
          expect(yield* runner.runDue).toBe(1)
          expect(yield* jobRow(id)).toMatchObject({ state: "succeeded", attempts: 3 })
          expect(yield* Ref.get(calls)).toBe(3)

          const [recent] = yield* jobs.recent({ limit: 1 })
          expect(recent).toMatchObject({ id, kind: "test-flaky", state: "succeeded", attempts: 3, lastError: "Error: boom 2" })
        }))
    }).pipe(Effect.withClock(clock)))

  it.effect("a job that keeps failing ends failed after maxAttempts", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      const Broken = jobKind("test-broken", Schema.Struct({}))
      const handlers = [jobHandler(Broken, () => Effect.die("kaput"))]
      yield* withRunner(handlers, (runner) =>
        Effect.gen(function*() {
          const id = Option.getOrThrow(yield* jobs.enqueue(Broken, {}, { maxAttempts: 2 }))
          expect(yield* runner.runDue).toBe(1)
          clock.advance(10_000)
          expect(yield* runner.runDue).toBe(1)
          expect(yield* jobRow(id)).toMatchObject({ state: "failed", attempts: 2 })
          clock.advance(3_600_000)
          expect(yield* runner.runDue).toBe(0)
          expect((yield* jobs.recent({ limit: 10, state: "failed" })).map((r) => r.id)).toContain(id)
        }))
    }).pipe(Effect.withClock(clock)))

  it.effect("the purge schedules delete expired idempotency records and expired or long-revoked sessions, nothing else", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const at = clock.unsafeCurrentTimeMillis()
      const ago = (ms: number) => new Date(at - ms)
      const hour = 3_600_000
      const day = 24 * hour
      const purgeTime = new Date(at + hour) // when the hourly purges run
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
                           ${ago(40 * 24 * hour)}, ${ago(40 * 24 * hour)}, ${ago(hour)}, ${s.expires}, ${s.revoked})`
      }
      const liveBefore = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM sessions WHERE expires_at > ${purgeTime} AND revoked_at IS NULL`

      yield* withRunner(serviceJobHandlers, (runner) =>
        Effect.gen(function*() {
          expect(yield* runner.runDue).toBe(0) // schedules registered, none due yet
          clock.advance(hour) // every hourly schedule is now due
          yield* runner.runDue
          yield* runner.runDue // a second pass runs nothing twice (occurrence moved forward)
        }), {}, serviceJobSchedules)

      const records = yield* sql<{ k: string }>`SELECT idempotency_key::text AS k FROM idempotency_records WHERE principal = 'purge-test'`
      expect(records.map((r) => r.k)).toEqual([keys.fresh])
      const left = yield* sql<{ id: string }>`SELECT id::text AS id FROM sessions WHERE ${sql.in("id", Object.values(sessions).map((s) => s.id))} ORDER BY id`
      expect(left.map((r) => r.id)).toEqual([sessions.recentlyRevoked.id, sessions.live.id])
      // the demo data's sessions still live at purge time survive
      const liveAfter = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM sessions WHERE expires_at > ${purgeTime} AND revoked_at IS NULL`
      expect(liveAfter[0]!.n).toBe(liveBefore[0]!.n)
      const runs = yield* sql<{ kind: string; state: string }>`SELECT kind, state FROM jobs WHERE kind LIKE 'purge-%' AND kind <> 'purge-job-runs' ORDER BY kind`
      expect(runs).toEqual([{ kind: "purge-idempotency-records", state: "succeeded" }, { kind: "purge-sessions", state: "succeeded" }])
    }).pipe(Effect.withClock(clock)))

  it.effect.skipIf(process.env["DATABASE_URL"] === undefined || process.env["DATABASE_URL"] === "")(
    "two polling runners never run the same job at once, and every job runs once (PostgreSQL only: the embedded database has one connection, so nothing runs concurrently there)",
    () =>
      Effect.gen(function*() {
        const jobs = yield* Jobs
        const Slow = jobKind("test-slow", Schema.Struct({ n: Schema.Number }))
        const running = new Map<string, number>()
        const runs: Array<string> = []
        let overlaps = 0
        const handlers = [jobHandler(Slow, (_, { jobId }) =>
          Effect.gen(function*() {
            running.set(jobId, (running.get(jobId) ?? 0) + 1)
            if (running.get(jobId)! > 1) overlaps++
            runs.push(jobId)
            yield* Effect.sleep("15 millis")
            running.set(jobId, running.get(jobId)! - 1)
          }))]
        const ids = new Set<string>()
        for (let n = 0; n < 24; n++) ids.add(Option.getOrThrow(yield* jobs.enqueue(Slow, { n })))
        const sql = yield* SqlClient.SqlClient
        const polling = { enabled: true, pollIntervalMs: 5, concurrency: 3 }
        yield* withRunner(handlers, () =>
          withRunner(handlers, () =>
            sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs WHERE kind = 'test-slow' AND state <> 'succeeded'`.pipe(
              Effect.repeat({ until: ([r]) => r!.n === 0, schedule: Schedule.spaced("10 millis") }),
              Effect.timeout("20 seconds")
            ), polling), polling)
        expect(overlaps).toBe(0)
        expect(runs.length).toBe(ids.size)
        expect(new Set(runs)).toEqual(ids)
      }).pipe(Effect.withClock(clock)),
    30_000
  )
})
