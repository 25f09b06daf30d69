/**
 * REFERENCE ONLY, not used by the service: a copy of the project's own earlier job queue
 * (`layers/Jobs.ts` as of commit 977c2c8^, removed by 977c2c8 when background work moved to the
 * durable engine), kept solely as the reference of `npm run bench:engine`
 * (test/bench/engine.ts), which runs the same two-step no-op work on it and on the engine.
 * Changed from the original: the import paths, and the `jobs` row type inlined (the
 * original's `src/admin/Schemas.ts` now describes workflow executions). Its tables are created
 * by `ReferenceJobTables` in a scratch database (the original migration 0003).
 *
 * The original's header follows.
 */
/**
 * The service's one durable job queue: jobs live in the `jobs` table
 * (migration 0003), so they survive restarts and are shared by every server process
 * on the same database.
 *
 * Guarantees:
 * - **atomic enqueue**: {@link Jobs.enqueue} runs on the caller's `SqlClient`, so called
 *   inside `sql.withTransaction` the job commits or rolls back with the caller's write;
 * - **at least once**: a runner claims a due job with `FOR UPDATE SKIP LOCKED` and holds
 *   a lease it renews while the handler runs; a runner that dies loses its lease and
 *   another runner runs the job again. Handlers must therefore be **idempotent** (a
 *   second run of a finished job must change nothing more, e.g. `DELETE … WHERE`);
 * - **never twice at the same moment**: a job is claimed by one runner at a time (row
 *   lock while claiming, then the lease); a stale runner's completion is ignored (its
 *   updates are fenced on runner id and attempt);
 * - **retries with backoff**: a failed attempt is retried after `baseMs·2^(attempt-1)`
 *   (capped) until `maxAttempts`, then the job is `failed` with its last error.
 *
 * The runner itself is {@link makeJobRunner}; handlers and cron schedules are given to it.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option, type ParseResult, Schema } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"

/** Life cycle of a job run (the original `src/admin/Schemas.ts`). */
export const JobRunState = Schema.Literal("pending", "running", "succeeded", "failed")
export type JobRunState = typeof JobRunState.Type

/** One run of a background job (the original `src/admin/Schemas.ts`, as a plain type). */
export interface JobRun {
  readonly id: string
  readonly kind: string
  readonly state: JobRunState
  readonly attempts: number
  readonly maxAttempts: number
  readonly runAt: Date
  readonly createdAt: Date
  readonly startedAt: Date | null
  readonly finishedAt: Date | null
  readonly lastError: string | null
}

/** A kind of job: its name and the Schema of its payload (stored as JSON, encoded form). */
export interface JobKind<A, I> {
  readonly kind: string
  readonly payload: Schema.Schema<A, I>
}

/** Declares a job kind. `kind` is a stable name stored in the database. */
export const jobKind = <A, I>(kind: string, payload: Schema.Schema<A, I>): JobKind<A, I> => ({ kind, payload })

/** Options of {@link Jobs.enqueue}. */
export interface EnqueueOptions {
  /** Earliest time to run (default: now). */
  readonly runAt?: Date | undefined
  /** At most one unfinished (pending or running) job carries this key; a second enqueue is a no-op. */
  readonly dedupeKey?: string | undefined
  /** Attempts before the job is `failed` (default 5, at least 1). */
  readonly maxAttempts?: number | undefined
}

/** Default attempts of a job. */
export const DefaultMaxAttempts = 5

const JobRunRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  state: JobRunState,
  attempts: Schema.Number,
  max_attempts: Schema.Number,
  run_at: Schema.DateFromSelf,
  created_at: Schema.DateFromSelf,
  started_at: Schema.NullOr(Schema.DateFromSelf),
  finished_at: Schema.NullOr(Schema.DateFromSelf),
  last_error: Schema.NullOr(Schema.String)
})

/** Maps a `jobs` row to a {@link JobRun}. */
const toJobRun = (r: typeof JobRunRow.Type): JobRun => ({
  id: r.id,
  kind: r.kind,
  state: r.state,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
  runAt: r.run_at,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  lastError: r.last_error
})

/** Decodes `jobs` rows selected with {@link jobRunColumns}. */
const decodeJobRunRows = Schema.decodeUnknown(Schema.Array(JobRunRow))

/** The columns {@link decodeJobRunRows} reads. */
const jobRunColumns = "id, kind, state, attempts, max_attempts, run_at, created_at, started_at, finished_at, last_error"

/** The job queue: enqueue and inspect (built by {@link JobsLive} on `SqlClient` and `Ids`). */
export class Jobs extends Context.Tag("agent-directory/Jobs")<Jobs, {
  /**
   * Enqueues a job of `job.kind`. Inside a caller's `sql.withTransaction` it is part of
   * that transaction. Returns the new job id, or `None` when `dedupeKey` matched an
   * unfinished job. Fails with `ParseError` (payload does not encode) or `SqlError`.
   */
  readonly enqueue: <A, I>(
    job: JobKind<A, I>,
    payload: A,
    options?: EnqueueOptions
  ) => Effect.Effect<Option.Option<string>, ParseResult.ParseError | SqlError.SqlError>
  /** {@link enqueue} of a payload already in its encoded (JSON) form, e.g. a stored schedule's. */
  readonly enqueueEncoded: (
    kind: string,
    encoded: unknown,
    options?: EnqueueOptions
  ) => Effect.Effect<Option.Option<string>, SqlError.SqlError>
  /** The most recent runs, newest first (at most `limit`, optionally one `state`). */
  readonly recent: (options: {
    readonly limit: number
    readonly state?: JobRunState | undefined
  }) => Effect.Effect<ReadonlyArray<JobRun>, SqlError.SqlError>
}>() {}

/** Builds the {@link Jobs} service. */
export const makeJobs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ids = yield* Ids
  const enqueueEncoded = (kind: string, encoded: unknown, options: EnqueueOptions = {}) =>
    Effect.gen(function*() {
      const id = yield* ids.next
      const at = yield* now
      const maxAttempts = Math.max(1, options.maxAttempts ?? DefaultMaxAttempts)
      const rows = yield* sql`
        INSERT INTO jobs (id, kind, payload, state, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at)
        VALUES (${id}, ${kind}, ${JSON.stringify(encoded)}::jsonb, 'pending', 0, ${maxAttempts},
                ${options.runAt ?? at}, ${options.dedupeKey ?? null}, ${at}, ${at})
        ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('pending', 'running') DO NOTHING
        RETURNING id`
      return rows.length === 0 ? Option.none<string>() : Option.some(id)
    })
  return Jobs.of({
    enqueue: (job, payload, options) =>
      Effect.flatMap(Schema.encode(job.payload)(payload), (encoded) => enqueueEncoded(job.kind, encoded, options)),
    enqueueEncoded,
    recent: ({ limit, state }) =>
      sql`SELECT ${sql.literal(jobRunColumns)} FROM jobs
          ${state === undefined ? sql`` : sql`WHERE state = ${state}`}
          ORDER BY created_at DESC, id DESC LIMIT ${limit}`.pipe(
        Effect.flatMap((rows) => Effect.orDie(decodeJobRunRows(rows))),
        Effect.map((rows) => rows.map(toJobRun))
      )
  })
})

/** The {@link Jobs} service on the `SqlClient`. */
export const JobsLive: Layer.Layer<Jobs, never, SqlClient.SqlClient | Ids> = Layer.effect(Jobs, makeJobs)
