/** SQL of partner job sources and the jobs their feeds deliver (spec §2.18). */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { type PartnerFeedJob, PartnerJobSource, type SkippedFeedJob } from "./Schemas.js"

/** Consecutive failed syncs after which an ACTIVE source becomes DEGRADED. */
export const DegradedAfterFailures = 3

/** The `adapter_version` of a source serving feed version `v`. */
export const adapterVersion = (v: 1 | 2) => `feed-v${v}`

/** A PostgreSQL `text[]` literal of `values` (each quoted: the driver binds it as text, cast by the column). */
const pgTextArray = (values: ReadonlyArray<string>) =>
  `{${values.map((v) => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`

/** What the sync job needs to know about a source. */
export const SyncTarget = Schema.Struct({
  state: Schema.String,
  endpointUrl: Schema.String,
  requestTimeoutMs: Schema.Number,
  pollIntervalSeconds: Schema.Number,
  responseSchemaVersion: Schema.Literal(1, 2)
})

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The wire columns of a source. */
  const columns = sql`id, code, display_name AS "displayName", website_url AS "websiteUrl", endpoint_url AS "endpointUrl",
    adapter_version AS "adapterVersion", response_schema_version AS "responseSchemaVersion",
    poll_interval_seconds AS "pollIntervalSeconds", request_timeout_ms AS "requestTimeoutMs", state,
    api_ts(next_sync_at) AS "nextSyncAt", api_ts(last_successful_sync_at) AS "lastSuccessfulSyncAt",
    failure_count AS "failureCount", last_failure AS "lastFailure", last_sync_job_count AS "lastSyncJobCount",
    last_sync_skipped_count AS "lastSyncSkippedCount", last_sync_skipped AS "lastSyncSkipped",
    version::float8 AS version, configuration_version::text AS "configurationVersion",
    api_ts(created_at) AS "createdAt", api_ts(updated_at) AS "updatedAt"`

  /** The source in its wire shape, or none. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: PartnerJobSource,
    execute: (id) => sql`SELECT ${columns} FROM partner_job_sources WHERE id = ${id}`
  })

  /** Every source, oldest first, ties by id; at most 500. */
  const list = SqlSchema.findAll({
    Request: Schema.Void,
    Result: PartnerJobSource,
    execute: () => sql`SELECT ${columns} FROM partner_job_sources ORDER BY created_at, id LIMIT 500`
  })

  /** Whether a source has `code`. */
  const codeTaken = (code: string) =>
    Effect.map(sql`SELECT 1 FROM partner_job_sources WHERE code = ${code}`, (rows) => rows.length > 0)

  /** Inserts a new source: ACTIVE, version 1, configuration 1, its first sync due at `at`. */
  const insert = (s: {
    readonly id: string
    readonly code: string
    readonly displayName: string
    readonly websiteUrl: string
    readonly endpointUrl: string
    readonly responseSchemaVersion: 1 | 2
    readonly pollIntervalSeconds: number
    readonly requestTimeoutMs: number
    readonly at: Date
  }) =>
    sql`INSERT INTO partner_job_sources ${
      sql.insert({
        id: s.id,
        code: s.code,
        display_name: s.displayName,
        website_url: s.websiteUrl,
        endpoint_url: s.endpointUrl,
        adapter_version: adapterVersion(s.responseSchemaVersion),
        response_schema_version: s.responseSchemaVersion,
        poll_interval_seconds: s.pollIntervalSeconds,
        request_timeout_ms: s.requestTimeoutMs,
        state: "ACTIVE",
        next_sync_at: s.at,
        failure_count: 0,
        version: 1,
        configuration_version: 1,
        created_at: s.at,
        updated_at: s.at
      })
    } ON CONFLICT (code) DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length > 0))

  /** The sync settings of a source, or none. */
  const syncTarget = SqlSchema.findOne({
    Request: Schema.String,
    Result: SyncTarget,
    execute: (id) =>
      sql`SELECT state, endpoint_url AS "endpointUrl", request_timeout_ms AS "requestTimeoutMs",
            poll_interval_seconds AS "pollIntervalSeconds", response_schema_version AS "responseSchemaVersion"
          FROM partner_job_sources WHERE id = ${id}`
  })

  /** Syncing (ACTIVE, DEGRADED) sources whose `next_sync_at` has come, with it and their version. */
  const due = (at: Date) =>
    sql<{ readonly id: string; readonly nextSyncAt: Date; readonly version: number }>`
      SELECT id, next_sync_at AS "nextSyncAt", version::int AS version FROM partner_job_sources
      WHERE state IN ('ACTIVE', 'DEGRADED') AND next_sync_at <= ${at} ORDER BY next_sync_at, id`

  /**
   * Upserts the feed's valid jobs (by external id), withdraws the source's jobs the feed no longer lists,
   * and marks the source healthy with what was stored and skipped.
   */
  const recordSuccess = (r: {
    id: string
    jobs: ReadonlyArray<PartnerFeedJob>
    skippedCount: number
    skipped: ReadonlyArray<SkippedFeedJob>
    at: Date
    nextSyncAt: Date
  }) =>
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
            skills: pgTextArray(j.skills.map((k) => k.toLowerCase())),
            protocols: pgTextArray(j.protocols.map((k) => k.toLowerCase())),
            reward_units: j.reward?.units ?? null,
            reward_asset: j.reward?.asset.toUpperCase() ?? null,
            reward_network: j.reward?.network ?? null,
            first_seen_at: r.at,
            last_seen_at: r.at
          })))
        } ON CONFLICT (source_id, external_id) DO UPDATE SET title = EXCLUDED.title, url = EXCLUDED.url,
            description = EXCLUDED.description, posted_at = EXCLUDED.posted_at, closes_at = EXCLUDED.closes_at,
            skills = EXCLUDED.skills, protocols = EXCLUDED.protocols, reward_units = EXCLUDED.reward_units,
            reward_asset = EXCLUDED.reward_asset, reward_network = EXCLUDED.reward_network,
            last_seen_at = EXCLUDED.last_seen_at, withdrawn_at = NULL`
      }
      // a feed is the partner's whole list: what it no longer lists leaves the board
      yield* sql`UPDATE partner_jobs SET withdrawn_at = ${r.at}
        WHERE source_id = ${r.id} AND last_seen_at < ${r.at} AND withdrawn_at IS NULL`
      yield* sql`UPDATE partner_job_sources SET failure_count = 0, last_failure = NULL, last_successful_sync_at = ${r.at},
          last_sync_job_count = ${r.jobs.length}, last_sync_skipped_count = ${r.skippedCount},
          last_sync_skipped = ${JSON.stringify(r.skipped)}::jsonb,
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

  return { findById, list, codeTaken, insert, syncTarget, due, recordSuccess, recordFailure } as const
})

/** SQL of partner job sources. */
export class PartnerJobsRepo extends Effect.Service<PartnerJobsRepo>()("agent-directory/PartnerJobsRepo", { effect: make }) {}
