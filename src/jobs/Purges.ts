/**
 * The first scheduled jobs (issue 6 §4): purges of tables that otherwise grow
 * forever. Each is one idempotent `DELETE … WHERE` relative to the job's clock, so
 * running it twice deletes nothing more.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { now } from "../../layers/Clock.js"
import { IdempotencyRetentionMs } from "../../layers/Idempotency.js"
import { jobHandler, jobSchedule } from "../../layers/JobRunner.js"
import { jobKind } from "../../layers/Jobs.js"

/** Revoked sessions are kept this long (ms, 30 days) after revocation; expired ones go at once. */
export const RevokedSessionRetentionMs = 30 * 24 * 60 * 60 * 1000
/** Finished (succeeded or failed) job runs are kept this long (ms, 14 days) for the admin view. */
export const FinishedJobRetentionMs = 14 * 24 * 60 * 60 * 1000

const NoPayload = Schema.Struct({})

/** Deletes idempotency records older than the replay window ({@link IdempotencyRetentionMs}). */
export const PurgeIdempotencyRecords = jobKind("purge-idempotency-records", NoPayload)
/** Deletes expired sessions and sessions revoked more than {@link RevokedSessionRetentionMs} ago. */
export const PurgeSessions = jobKind("purge-sessions", NoPayload)
/** Deletes finished job runs older than {@link FinishedJobRetentionMs}. */
export const PurgeJobRuns = jobKind("purge-job-runs", NoPayload)

const olderThan = (ms: number) => Effect.map(now, (at) => new Date(at.getTime() - ms))

/** Handlers of the purge jobs (need `SqlClient`). */
export const purgeHandlers = [
  jobHandler(PurgeIdempotencyRecords, () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const before = yield* olderThan(IdempotencyRetentionMs)
      yield* sql`DELETE FROM idempotency_records WHERE created_at < ${before}`
    })),
  jobHandler(PurgeSessions, () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const at = yield* now
      const revokedBefore = yield* olderThan(RevokedSessionRetentionMs)
      yield* sql`DELETE FROM sessions WHERE expires_at <= ${at} OR revoked_at < ${revokedBefore}`
    })),
  jobHandler(PurgeJobRuns, () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const before = yield* olderThan(FinishedJobRetentionMs)
      yield* sql`DELETE FROM jobs WHERE state IN ('succeeded', 'failed') AND finished_at < ${before}`
    }))
]

/** Hourly purges of idempotency records and sessions, a daily purge of old job runs (UTC). */
export const purgeSchedules = [
  jobSchedule("purge-idempotency-records", "17 * * * *", PurgeIdempotencyRecords, {}),
  jobSchedule("purge-sessions", "23 * * * *", PurgeSessions, {}),
  jobSchedule("purge-job-runs", "41 3 * * *", PurgeJobRuns, {})
]
