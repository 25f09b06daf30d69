/**
 * SQL of upstream sources (migration 0050): the sources, their sync bookkeeping, and the bulk
 * writes of an ingested batch (agents, `upstream_entries`, `registry_servers`), each batch in one
 * transaction.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { type UpstreamKind, UpstreamSource } from "./Schemas.js"

/** Consecutive failed syncs after which an ACTIVE source becomes DEGRADED. */
export const DegradedAfterFailures = 3

/** What a sync needs to know about a source. */
export interface SyncTarget {
  readonly id: string
  readonly kind: UpstreamKind
  readonly baseUrl: string | null
  readonly network: string | null
  readonly registryAddress: string | null
  readonly rpcUrl: string | null
  readonly domains: ReadonlyArray<string>
  readonly syncIntervalSeconds: number
  readonly watermark: string | null
}

/** An entry as stored: its agent, digest and the validators of its last fetch. */
export interface KnownEntry {
  readonly key: string
  readonly agentId: string
  readonly digest: string
  readonly etag: string | null
  readonly lastModified: string | null
  readonly state: "PRESENT" | "VANISHED"
}

const SourceRow = Schema.Struct({
  ...UpstreamSource.fields,
  domains: Schema.parseJson(Schema.Array(Schema.String))
})

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const select = sql`SELECT s.id, s.kind, s.display_name AS "displayName", s.base_url AS "baseUrl", s.network_caip2 AS network,
      s.registry_address AS "registryAddress", s.rpc_url AS "rpcUrl", s.domains::text AS domains,
      s.sync_interval_seconds AS "syncIntervalSeconds", s.state, s.version::float8 AS version, s.watermark,
      api_ts(s.next_sync_at) AS "nextSyncAt", api_ts(s.last_successful_sync_at) AS "lastSuccessfulSyncAt",
      s.failure_count AS "failureCount", s.last_failure AS "lastFailure",
      json_build_object('present', (SELECT count(*) FROM upstream_entries e WHERE e.source_id = s.id AND e.state = 'PRESENT'),
                        'vanished', (SELECT count(*) FROM upstream_entries e WHERE e.source_id = s.id AND e.state = 'VANISHED')) AS entries,
      api_ts(s.created_at) AS "createdAt", api_ts(s.updated_at) AS "updatedAt"
    FROM upstream_sources s`

  const findById = SqlSchema.findOne({ Request: Schema.String, Result: SourceRow, execute: (id) => sql`${select} WHERE s.id = ${id}` })
  const list = SqlSchema.findAll({ Request: Schema.Void, Result: SourceRow, execute: () => sql`${select} ORDER BY s.created_at, s.id LIMIT 500` })

  return {
    findById: (id: string) => findById(id),
    list: () => list(undefined),
    insert: (s: {
      readonly id: string
      readonly kind: UpstreamKind
      readonly displayName: string
      readonly baseUrl: string | null
      readonly network: string | null
      readonly registryAddress: string | null
      readonly rpcUrl: string | null
      readonly domains: ReadonlyArray<string>
      readonly syncIntervalSeconds: number
      readonly at: Date
    }) =>
      sql`INSERT INTO upstream_sources (id, kind, display_name, base_url, network_caip2, registry_address, rpc_url, domains,
            sync_interval_seconds, state, version, next_sync_at, created_at, updated_at)
          VALUES (${s.id}, ${s.kind}, ${s.displayName}, ${s.baseUrl}, ${s.network}, ${s.registryAddress}, ${s.rpcUrl},
            ${JSON.stringify(s.domains)}::jsonb, ${s.syncIntervalSeconds}, 'ACTIVE', 1, ${s.at}, ${s.at}, ${s.at})`,
    /** What a sync of `id` needs, or undefined. */
    syncTarget: (id: string) =>
      Effect.map(
        sql<Omit<SyncTarget, "domains"> & { readonly domains: string }>`SELECT id, kind, base_url AS "baseUrl", network_caip2 AS network,
            registry_address AS "registryAddress", rpc_url AS "rpcUrl", domains::text AS domains,
            sync_interval_seconds AS "syncIntervalSeconds", watermark FROM upstream_sources WHERE id = ${id}`,
        ([row]): SyncTarget | undefined => row === undefined ? undefined : { ...row, domains: JSON.parse(row.domains) as Array<string> }
      ),
    /** Sources whose `next_sync_at` has come, with it and their version. */
    due: (at: Date) =>
      sql<{ readonly id: string; readonly nextSyncAt: Date; readonly version: number }>`
        SELECT id, next_sync_at AS "nextSyncAt", version::int AS version FROM upstream_sources
        WHERE next_sync_at <= ${at} ORDER BY next_sync_at, id`,
    /** The stored entries of `keys`. */
    known: (sourceId: string, keys: ReadonlyArray<string>) =>
      keys.length === 0 ? Effect.succeed([] as ReadonlyArray<KnownEntry>) : sql<KnownEntry>`
        SELECT external_key AS key, agent_id AS "agentId", digest, etag, last_modified AS "lastModified", state
        FROM upstream_entries WHERE source_id = ${sourceId} AND external_key IN ${sql.in(keys)}`,
    /** Every stored entry of the source (for the per-item validators of chains and domains). */
    allKnown: (sourceId: string) =>
      sql<KnownEntry>`SELECT external_key AS key, agent_id AS "agentId", digest, etag, last_modified AS "lastModified", state
        FROM upstream_entries WHERE source_id = ${sourceId}`,
    /** Records a successful sync: the new watermark, failures reset, ACTIVE, next sync. */
    recordSuccess: (r: { readonly id: string; readonly watermark: string | null; readonly at: Date; readonly nextSyncAt: Date }) =>
      sql`UPDATE upstream_sources SET watermark = COALESCE(${r.watermark}, watermark), failure_count = 0, last_failure = NULL,
            state = 'ACTIVE', last_successful_sync_at = ${r.at}, next_sync_at = ${r.nextSyncAt}, updated_at = ${r.at}
          WHERE id = ${r.id}`,
    /** Counts a failed sync; the {@link DegradedAfterFailures}th in a row degrades the source. */
    recordFailure: (r: { readonly id: string; readonly failure: string; readonly at: Date; readonly nextSyncAt: Date }) =>
      sql`UPDATE upstream_sources SET failure_count = failure_count + 1, last_failure = ${r.failure},
            state = CASE WHEN failure_count + 1 >= ${DegradedAfterFailures} THEN 'DEGRADED' ELSE state END,
            next_sync_at = ${r.nextSyncAt}, updated_at = ${r.at}
          WHERE id = ${r.id}`
  } as const
})

/** SQL of upstream sources. */
export class UpstreamRepo extends Effect.Service<UpstreamRepo>()("agent-directory/UpstreamRepo", { effect: make }) {}
