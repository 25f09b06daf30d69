/**
 * Purges of tables that otherwise grow forever, as cron jobs on the durable engine
 * (`ClusterCron`: each occurrence runs once across all runners). Each is one idempotent
 * `DELETE … WHERE` relative to the clock (Effect's `Clock`), so running it twice deletes
 * nothing more. Times are UTC.
 */
import { ClusterCron, EntityAddress, EntityId, EntityType, MessageStorage, ShardId } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Cron, Effect, Layer } from "effect"
import { now } from "../../layers/Clock.js"
import { retryTransient } from "../../layers/Engine.js"
import { IdempotencyRetentionMs } from "../../layers/Idempotency.js"
import { WorkflowExecutions } from "./Executions.js"

/** Revoked sessions are kept this long (ms, 30 days) after revocation; expired ones go at once. */
export const RevokedSessionRetentionMs = 30 * 24 * 60 * 60 * 1000

/**
 * A purge whose occurrence is late (every runner was down, or a test moved the clock)
 * still runs when the engine gets to it: it deletes relative to the time it runs, so
 * running late is right, and the next occurrence is counted from then.
 */
const RunLateOccurrences = "3650 days"

const olderThan = (ms: number) => Effect.map(now, (at) => new Date(at.getTime() - ms))

/** Hourly at :17, deletes idempotency records older than the replay window ({@link IdempotencyRetentionMs}). */
const PurgeIdempotencyRecords = ClusterCron.make({
  name: "PurgeIdempotencyRecords",
  cron: Cron.unsafeParse("17 * * * *"),
  skipIfOlderThan: RunLateOccurrences,
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
  skipIfOlderThan: RunLateOccurrences,
  execute: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const revokedBefore = yield* olderThan(RevokedSessionRetentionMs)
    yield* sql`DELETE FROM sessions WHERE expires_at <= ${at} OR revoked_at < ${revokedBefore}`
  }).pipe(retryTransient)
})

/** Finished workflow executions and past cron occurrences are kept this long (ms, 14 days) in the engine's storage. */
export const FinishedWorkRetentionMs = 14 * 24 * 60 * 60 * 1000

/** The most engine entities one purge clears (the next day's purge takes the rest). */
const PurgeBatch = 10_000

/**
 * Daily at 03:41, clears the engine's rows (requests and replies, through the engine's
 * public `MessageStorage.clearAddress`) of workflow executions that ended and cron
 * occurrences that ran more than {@link FinishedWorkRetentionMs} ago, so its storage
 * does not grow forever. Admin_ListJobRuns no longer shows them.
 */
const PurgeEngineHistory = ClusterCron.make({
  name: "PurgeEngineHistory",
  cron: Cron.unsafeParse("41 3 * * *"),
  skipIfOlderThan: RunLateOccurrences,
  execute: Effect.gen(function*() {
    const storage = yield* MessageStorage.MessageStorage
    const executions = yield* WorkflowExecutions
    const before = yield* olderThan(FinishedWorkRetentionMs)
    const addresses = yield* executions.finishedBefore(before, PurgeBatch)
    yield* Effect.forEach(addresses, (a) => {
      const colon = a.shardId.lastIndexOf(":")
      return storage.clearAddress(EntityAddress.make({
        shardId: ShardId.make(a.shardId.slice(0, colon), Number(a.shardId.slice(colon + 1))),
        entityType: EntityType.EntityType.make(a.entityType),
        entityId: EntityId.make(a.entityId)
      }))
    }, { discard: true })
    if (addresses.length > 0) yield* Effect.logInfo(`cleared ${addresses.length} finished engine entities`)
  }).pipe(retryTransient, Effect.provide(WorkflowExecutions.Default))
})

/** The purge cron jobs, registered on the engine (need `SqlClient` and the engine's `Sharding` and `MessageStorage`). */
export const PurgeCrons = Layer.mergeAll(PurgeIdempotencyRecords, PurgeSessions, PurgeEngineHistory)
