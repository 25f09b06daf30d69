/**
 * REFERENCE ONLY, not used by the service: a copy of the project's own earlier job queue
 * (`layers/JobRunner.ts` as of commit 977c2c8^, removed by 977c2c8 when background work moved to the
 * durable engine), kept solely as the reference of `npm run bench:engine`
 * (test/bench/engine.ts), which runs the same two-step no-op work on it and on the engine.
 * Changed from the original: the import paths, and the `jobs` row type inlined (the
 * original's `src/admin/Schemas.ts` now describes workflow executions). Its tables are created
 * by `ReferenceJobTables` in a scratch database (the original migration 0003).
 *
 * The original's header follows.
 */
/**
 * The job runner: claims due jobs of the `jobs` table (see layers/Jobs.ts for the
 * guarantees), runs their handlers, retries failures with backoff, and enqueues the
 * jobs of due cron schedules. Any number of runners (server processes) may share one
 * database: claiming uses `FOR UPDATE SKIP LOCKED` plus a renewed lease, and a due
 * schedule row is taken by one runner and moved forward in the same transaction.
 *
 * Time comes from `Clock` (so the manual clock drives retries and schedules in tests);
 * the database's own `now()` is never used.
 */
import { SqlClient } from "@effect/sql"
import { CronExpressionParser } from "cron-parser"
import { Cause, Context, Duration, Effect, Exit, Fiber, Layer, type ParseResult, Ref, Schedule, Schema } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { type JobKind, Jobs } from "./Jobs.js"

/** What a handler learns about the run it serves. */
export interface JobContext {
  readonly jobId: string
  /** 1 for the first attempt. */
  readonly attempt: number
}

/** A handler of one job kind, payload already decoded. `R` = services it needs. */
export interface JobHandler<R> {
  readonly kind: string
  readonly run: (payload: unknown, context: JobContext) => Effect.Effect<void, unknown, R>
}

/**
 * Registers `handle` for `job.kind`. The stored payload is decoded with the kind's
 * Schema first; a payload that does not decode fails the attempt like any error.
 * `handle` must be idempotent (it may run again after a crash or a lost lease).
 */
export const jobHandler = <A, I, E, R>(
  job: JobKind<A, I>,
  handle: (payload: A, context: JobContext) => Effect.Effect<void, E, R>
): JobHandler<R> => ({
  kind: job.kind,
  run: (payload, context) =>
    Schema.decodeUnknown(job.payload)(payload).pipe(Effect.flatMap((a) => handle(a, context)))
})

/**
 * `handler` with `layer` provided to each of its runs (the layer is built per run), so
 * a handler's own services need not be provided to the whole runner.
 */
export const provideJobHandler = <R, ROut, E, RIn>(
  handler: JobHandler<R>,
  layer: Layer.Layer<ROut, E, RIn>
): JobHandler<Exclude<R, ROut> | RIn> => ({
  kind: handler.kind,
  run: (payload, context) => Effect.provide(handler.run(payload, context), layer)
})

/** A cron schedule enqueuing one job per occurrence (UTC). */
export interface JobSchedule {
  /** Stable unique name (the `job_schedules` key). */
  readonly name: string
  /** Cron expression (5 or 6 fields, `cron-parser` syntax), evaluated in UTC. */
  readonly cron: string
  readonly kind: string
  readonly payload: Effect.Effect<unknown, ParseResult.ParseError>
}

/** Declares a schedule running `job` with `payload` at each `cron` occurrence. */
export const jobSchedule = <A, I>(name: string, cron: string, job: JobKind<A, I>, payload: A): JobSchedule => {
  CronExpressionParser.parse(cron, { tz: "UTC" }) // a bad expression fails at declaration
  return { name, cron, kind: job.kind, payload: Schema.encode(job.payload)(payload) }
}

/** The next occurrence of `cron` strictly after `after` (UTC). */
export const nextOccurrence = (cron: string, after: Date): Date =>
  CronExpressionParser.parse(cron, { currentDate: after, tz: "UTC" }).next().toDate()

/** Runner settings (from AppConfig `jobs`, see README). */
export interface JobRunnerOptions {
  /** Start the polling loop (false: only {@link JobRunner.runDue} runs jobs). */
  readonly enabled: boolean
  /** Pause between polls, in milliseconds. */
  readonly pollIntervalMs: number
  /** Jobs run at once by this runner. */
  readonly concurrency: number
  /** Lease of a claimed job, in milliseconds; renewed every third of it while the handler runs. */
  readonly leaseMs: number
  /** First retry delay in milliseconds; doubles per attempt. */
  readonly backoffBaseMs: number
  /** Longest retry delay in milliseconds. */
  readonly backoffMaxMs: number
}

/** Delay before retrying after failed attempt number `attempt` (1-based), in ms. */
export const retryDelayMs = (options: Pick<JobRunnerOptions, "backoffBaseMs" | "backoffMaxMs">, attempt: number) =>
  Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** Math.max(0, attempt - 1))

/** A running job runner. */
export class JobRunner extends Context.Tag("agent-directory/JobRunner")<JobRunner, {
  /** This runner's id (stored in `jobs.locked_by` while it holds a lease). */
  readonly runnerId: string
  /**
   * One pass: enqueues due schedules, claims up to `concurrency` due jobs and runs
   * them to the end. Returns how many jobs ran. For tests and one-shot use.
   */
  readonly runDue: Effect.Effect<number>
}>() {}

const ClaimedRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  payload: Schema.Unknown,
  attempts: Schema.Number,
  max_attempts: Schema.Number
})
type Claimed = typeof ClaimedRow.Type

const ScheduleRow = Schema.Struct({
  name: Schema.String,
  cron: Schema.String,
  kind: Schema.String,
  payload: Schema.Unknown,
  next_run_at: Schema.DateFromSelf
})

/** A concise, bounded description of a failure for `jobs.last_error` (admin-visible). */
const describeFailure = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.slice(0, 1000)
}

/**
 * Starts a runner for `handlers` (one per kind) and registers `schedules` (upserted
 * by name; a changed cron expression restarts its timing). The polling loop and the
 * jobs in flight stop with the layer's scope; an interrupted job goes back to
 * `pending` without counting the attempt.
 */
export const makeJobRunner = <R>(
  handlers: ReadonlyArray<JobHandler<R>>,
  schedules: ReadonlyArray<JobSchedule>,
  options: JobRunnerOptions
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const jobs = yield* Jobs
    const runnerId = yield* (yield* Ids).next
    const context = yield* Effect.context<R>()
    const byKind = new Map(handlers.map((h) => [h.kind, h]))
    const kinds = [...byKind.keys()]
    const inFlight = yield* Ref.make(0)

    // Register schedules: keep an existing row's timing unless its cron changed.
    const registeredAt = yield* now
    for (const s of schedules) {
      const payload = yield* Effect.orDie(s.payload)
      yield* sql`
        INSERT INTO job_schedules (name, cron, kind, payload, next_run_at)
        VALUES (${s.name}, ${s.cron}, ${s.kind}, ${JSON.stringify(payload)}::jsonb, ${nextOccurrence(s.cron, registeredAt)})
        ON CONFLICT (name) DO UPDATE SET
          next_run_at = CASE WHEN job_schedules.cron = EXCLUDED.cron THEN job_schedules.next_run_at ELSE EXCLUDED.next_run_at END,
          cron = EXCLUDED.cron, kind = EXCLUDED.kind, payload = EXCLUDED.payload`.pipe(Effect.orDie)
    }

    // Due schedules → one job per occurrence (dedupe key = schedule + occurrence), then move forward.
    const enqueueDueSchedules = Effect.gen(function*() {
      const at = yield* now
      const due = yield* sql`
        SELECT name, cron, kind, payload, next_run_at FROM job_schedules
        WHERE next_run_at <= ${at} FOR UPDATE SKIP LOCKED`.pipe(Effect.flatMap(Schema.decodeUnknown(Schema.Array(ScheduleRow))))
      for (const s of due) {
        yield* jobs.enqueueEncoded(s.kind, s.payload, {
          runAt: s.next_run_at,
          dedupeKey: `schedule:${s.name}:${s.next_run_at.toISOString()}`
        })
        yield* sql`UPDATE job_schedules SET next_run_at = ${nextOccurrence(s.cron, at)} WHERE name = ${s.name}`
      }
    }).pipe(sql.withTransaction)

    const claim = (limit: number) =>
      Effect.gen(function*() {
        if (limit <= 0 || kinds.length === 0) return []
        const at = yield* now
        const leaseUntil = new Date(at.getTime() + options.leaseMs)
        const rows = yield* sql`
          UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_by = ${runnerId},
                 locked_until = ${leaseUntil}, started_at = ${at}, updated_at = ${at}
          WHERE id IN (
            SELECT id FROM jobs
            WHERE ${sql.in("kind", kinds)}
              AND ((state = 'pending' AND run_at <= ${at}) OR (state = 'running' AND locked_until < ${at}))
            ORDER BY run_at, id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, kind, payload, attempts, max_attempts`
        return yield* Schema.decodeUnknown(Schema.Array(ClaimedRow))(rows)
      })

    // Every update of a claimed job is fenced on (runner, attempt): a runner that lost its lease changes nothing.
    const fence = (job: Claimed) => sql`id = ${job.id} AND locked_by = ${runnerId} AND attempts = ${job.attempts} AND state = 'running'`

    const renewLease = (job: Claimed) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* sql`UPDATE jobs SET locked_until = ${new Date(at.getTime() + options.leaseMs)}, updated_at = ${at} WHERE ${fence(job)}`
      })

    const finish = (job: Claimed, exit: Exit.Exit<void, unknown>) =>
      Effect.gen(function*() {
        const at = yield* now
        if (Exit.isSuccess(exit)) {
          yield* sql`UPDATE jobs SET state = 'succeeded', finished_at = ${at}, updated_at = ${at},
                     locked_by = NULL, locked_until = NULL WHERE ${fence(job)}`
        } else if (Cause.isInterruptedOnly(exit.cause)) {
          yield* sql`UPDATE jobs SET state = 'pending', attempts = attempts - 1, updated_at = ${at},
                     locked_by = NULL, locked_until = NULL WHERE ${fence(job)}`
        } else {
          const error = describeFailure(exit.cause)
          const retry = job.attempts < job.max_attempts
          const runAt = new Date(at.getTime() + retryDelayMs(options, job.attempts))
          yield* Effect.logWarning(`job ${job.kind} ${job.id} attempt ${job.attempts} failed${retry ? ", will retry" : ""}`)
          yield* retry
            ? sql`UPDATE jobs SET state = 'pending', run_at = ${runAt}, last_error = ${error}, updated_at = ${at},
                  locked_by = NULL, locked_until = NULL WHERE ${fence(job)}`
            : sql`UPDATE jobs SET state = 'failed', finished_at = ${at}, last_error = ${error}, updated_at = ${at},
                  locked_by = NULL, locked_until = NULL WHERE ${fence(job)}`
        }
      })

    const runOne = (job: Claimed): Effect.Effect<void> => {
      const handler = byKind.get(job.kind)
      const work: Effect.Effect<void, unknown> = handler === undefined
        ? Effect.fail(new Error(`no handler for job kind ${job.kind}`))
        : Effect.provide(handler.run(job.payload, { jobId: job.id, attempt: job.attempts }), context)
      return Effect.gen(function*() {
        const heartbeat = yield* renewLease(job).pipe(
          Effect.ignoreLogged,
          Effect.repeat(Schedule.spaced(Duration.millis(Math.max(1, Math.floor(options.leaseMs / 3))))),
          Effect.delay(Duration.millis(Math.max(1, Math.floor(options.leaseMs / 3)))),
          Effect.interruptible, // forked from an uninterruptible region: must stay stoppable
          Effect.fork
        )
        const exit = yield* Effect.exit(Effect.interruptible(work))
        yield* Fiber.interrupt(heartbeat)
        yield* finish(job, exit).pipe(Effect.ignoreLogged)
        if (Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause)) return yield* Effect.interrupt
      }).pipe(Effect.uninterruptible)
    }

    const runDue = Effect.gen(function*() {
      yield* enqueueDueSchedules
      const jobs = yield* claim(options.concurrency)
      yield* Effect.forEach(jobs, runOne, { concurrency: "unbounded", discard: true })
      return jobs.length
    }).pipe(Effect.orDie)

    if (options.enabled) {
      const scope = yield* Effect.scope
      const poll = Effect.gen(function*() {
        yield* enqueueDueSchedules
        const free = options.concurrency - (yield* Ref.get(inFlight))
        const jobs = yield* claim(free)
        for (const job of jobs) {
          yield* Ref.update(inFlight, (n) => n + 1)
          yield* runOne(job).pipe(Effect.ensuring(Ref.update(inFlight, (n) => n - 1)), Effect.forkIn(scope))
        }
      }).pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("job runner poll failed", cause)),
        Effect.zipRight(Effect.sleep(Duration.millis(options.pollIntervalMs))),
        Effect.forever
      )
      yield* Effect.forkScoped(Effect.interruptible(poll))
      yield* Effect.logInfo(`job runner ${runnerId} started (${kinds.join(", ") || "no kinds"})`)
    }
    return JobRunner.of({ runnerId, runDue })
  })

/** The runner as a layer (see {@link makeJobRunner}). */
export const JobRunnerLayer = <R>(
  handlers: ReadonlyArray<JobHandler<R>>,
  schedules: ReadonlyArray<JobSchedule>,
  options: JobRunnerOptions
): Layer.Layer<JobRunner, never, SqlClient.SqlClient | Ids | Jobs | R> =>
  Layer.scoped(JobRunner, Effect.orDie(makeJobRunner(handlers, schedules, options)))
