/**
 * Purges of tables that otherwise grow forever, as cron jobs on the durable engine
 * (`ClusterCron`: each occurrence runs once across all runners). Each is one idempotent
 * `DELETE … WHERE` relative to the clock (Effect's `Clock`), so running it twice deletes
 * nothing more. Times are UTC.
 */
import { ClusterCron } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Cron, Effect, Layer } from "effect"
import { now } from "../../layers/Clock.js"
import { retryTransient } from "../../layers/Engine.js"
import { IdempotencyRetentionMs } from "../../layers/Idempotency.js"

/** Revoked sessions are kept this long (ms, 30 days) after revocation; expired ones go at once. */
export const RevokedSessionRetentionMs = 30 * 24 * 60 * 60 * 1000

const olderThan = (ms: number) => Effect.map(now, (at) => new Date(at.getTime() - ms))

/** Hourly at :17, deletes idempotency records older than the replay window ({@link IdempotencyRetentionMs}). */
const PurgeIdempotencyRecords = ClusterCron.make({
  name: "PurgeIdempotencyRecords",
  cron: Cron.unsafeParse("17 * * * *"),
  execute: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const before = yield* olderThan(IdempotencyRetentionMs)
    yield* sql`DELETE FROM idempotency_records WHERE created_at < ${before}`
  }).pipe(retryTransient)
})

/** Hourly at :23, deletes expired sessions and sessions revoked more than {@link RevokedSessionRetentionMs} ago. */
const PurgeSessions = ClusterCron.make({
  name: "PurgeSessions",
  cron: Cron.unsafeParse("23 * * * *"),
  execute: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const revokedBefore = yield* olderThan(RevokedSessionRetentionMs)
    yield* sql`DELETE FROM sessions WHERE expires_at <= ${at} OR revoked_at < ${revokedBefore}`
  }).pipe(retryTransient)
})

/** The purge cron jobs, registered on the engine (need `SqlClient` and the engine's `Sharding`). */
export const PurgeCrons = Layer.mergeAll(PurgeIdempotencyRecords, PurgeSessions)
