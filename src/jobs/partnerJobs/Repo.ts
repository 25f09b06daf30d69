/** SQL of partner job sources and the jobs their feeds deliver (spec §2.18). */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { PartnerJobSource, type PartnerFeedJob } from "./Schemas.js"

/** Consecutive failed syncs after which an ACTIVE source becomes DEGRADED. */
export const DegradedAfterFailures = 3

/** What the sync job needs to know about a source. */
export const SyncTarget = Schema.Struct({
  state: Schema.String,
  endpointUrl: Schema.String,
  requestTimeoutMs: Schema.Number,
  pollIntervalSeconds: Schema.Number
})

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The source in its wire shape, or none. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: PartnerJobSource,
    execute: (id) =>
      sql`SELECT id, code, display_name AS "displayName", website_url AS "websiteUrl", endpoint_url AS "endpointUrl",
            adapter_version AS "adapterVersion", response_schema_version AS "responseSchemaVersion",
            poll_interval_seconds AS "pollIntervalSeconds", request_timeout_ms AS "requestTimeoutMs", state,
            api_ts(next_sync_at) AS "nextSyncAt", api_ts(last_successful_sync_at) AS "lastSuccessfulSyncAt",
            failure_count AS "failureCount", version::float8 AS version, configuration_version::text AS "configurationVersion",
            api_ts(updated_at) AS "updatedAt"
          FROM partner_job_sources WHERE id = ${id}`
  })

  /** The sync settings of a source, or none. */
  const syncTarget = SqlSchema.findOne({
    Request: Schema.String,
    Result: SyncTarget,
    execute: (id) =>
      sql`SELECT state, endpoint_url AS "endpointUrl", request_timeout_ms AS "requestTimeoutMs",
            poll_interval_seconds AS "pollIntervalSeconds" FROM partner_job_sources WHERE id = ${id}`
  })

  /** Syncing (ACTIVE, DEGRADED) sources whose `next_sync_at` has come, with it and their version. */
  const due = (at: Date) =>
    sql<{ readonly id: string; readonly nextSyncAt: Date; readonly version: number }>`
      SELECT id, next_sync_at AS "nextSyncAt", version::int AS version FROM partner_job_sources
      WHERE state IN ('ACTIVE', 'DEGRADED') AND next_sync_at <= ${at} ORDER BY next_sync_at, id`

  /** Upserts the feed's jobs (by external id) and marks the source healthy. */
  const recordSuccess = (r: { id: string; jobs: ReadonlyArray<PartnerFeedJob>; at: Date; nextSyncAt: Date }) =>
    Effect.gen(function*() {
      if (r.jobs.length > 0) {
        yield* sql`INSERT INTO partner_jobs ${
          sql.insert(r.jobs.map((j) => ({
            source_id: r.id,
            external_id: j.externalId,
            title: j.title,
            url: j.url,
            description: j.description,
            posted_at: j.postedAt,
            closes_at: j.closesAt,
            first_seen_at: r.at,
            last_seen_at: r.at
          })))
        } ON CONFLICT (source_id, external_id) DO UPDATE SET title = EXCLUDED.title, url = EXCLUDED.url,
            description = EXCLUDED.description, posted_at = EXCLUDED.posted_at, closes_at = EXCLUDED.closes_at,
            last_seen_at = EXCLUDED.last_seen_at`
      }
      yield* sql`UPDATE partner_job_sources SET failure_count = 0, last_failure = NULL, last_successful_sync_at = ${r.at},
          state = CASE WHEN state = 'DEGRADED' THEN 'ACTIVE' ELSE state END, next_sync_at = ${r.nextSyncAt},
          updated_at = ${r.at}
        WHERE id = ${r.id} AND state IN ('ACTIVE', 'DEGRADED')`
    })

  /** Counts a failed sync; the {@link DegradedAfterFailures}th in a row degrades an ACTIVE source. */
  const recordFailure = (r: { id: string; failure: string; at: Date; nextSyncAt: Date }) =>
    sql`UPDATE partner_job_sources SET failure_count = failure_count + 1, last_failure = ${r.failure},
          state = CASE WHEN state = 'ACTIVE' AND failure_count + 1 >= ${DegradedAfterFailures} THEN 'DEGRADED' ELSE state END,
          next_sync_at = ${r.nextSyncAt}, updated_at = ${r.at}
        WHERE id = ${r.id} AND state IN ('ACTIVE', 'DEGRADED')`

  return { findById, syncTarget, due, recordSuccess, recordFailure } as const
})

/** SQL of partner job sources. */
export class PartnerJobsRepo extends Effect.Service<PartnerJobsRepo>()("agent-directory/PartnerJobsRepo", { effect: make }) {}
