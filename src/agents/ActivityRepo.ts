/** SQL of public agent activity (spec §2.21, §4.3 Agents_GetPublicAgentActivity). */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { ActivityItem } from "../../schema/analytics.js"

/** Keyset position of an activity item: when it occurred (wire date-time) and its id; newest first. */
export const ActivityPosition = Schema.Tuple(Schema.String, Schema.String)

/** Filters of the feed; an empty list = no filter. */
export interface ActivityFilters {
  readonly sourceKinds: ReadonlyArray<string>
  readonly networks: ReadonlyArray<string>
  readonly activityKeys: ReadonlyArray<string>
}

export class ActivityRepo extends Effect.Service<ActivityRepo>()("agent-directory/ActivityRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const feed = SqlSchema.findAll({
      Request: Schema.Struct({
        agentId: Schema.String,
        sourceKinds: Schema.Array(Schema.String),
        networks: Schema.Array(Schema.String),
        activityKeys: Schema.Array(Schema.String),
        after: Schema.NullOr(ActivityPosition),
        take: Schema.Number
      }),
      Result: ActivityItem,
      execute: (r) =>
        sql`SELECT a.id AS "publicId", a.activity_key AS "activityKey", a.event_version AS "eventVersion", a.summary,
              a.source_kind AS "sourceKind",
              CASE WHEN n.id IS NULL THEN NULL ELSE json_build_object('key', n.key, 'displayName', n.display_name) END AS network,
              a.transaction_reference AS "transactionReference", a.explorer_url AS "explorerUrl",
              a.evidence_public_id AS "evidencePublicId", api_ts(a.occurred_at) AS "occurredAt"
            FROM agent_activity a LEFT JOIN networks n ON n.id = a.network_id
           WHERE a.agent_id = ${r.agentId}
             ${r.sourceKinds.length === 0 ? sql`` : sql`AND a.source_kind IN ${sql.in(r.sourceKinds)}`}
             ${r.networks.length === 0 ? sql`` : sql`AND (n.key IN ${sql.in(r.networks)} OR n.caip2 IN ${sql.in(r.networks)})`}
             ${r.activityKeys.length === 0 ? sql`` : sql`AND a.activity_key IN ${sql.in(r.activityKeys)}`}
             ${r.after === null ? sql`` : sql`AND (a.occurred_at, a.id) < (${r.after[0]}::timestamptz, ${r.after[1]}::uuid)`}
           ORDER BY a.occurred_at DESC, a.id DESC
           LIMIT ${r.take}`
    })
    return {
      /** Whether the agent exists. */
      agentExists: (agentId: string) =>
        sql<{ id: string }>`SELECT id FROM agents WHERE id = ${agentId}`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      /** The agent's activity after a position, newest first, with each item's position. */
      feed: (agentId: string, filters: ActivityFilters, after: typeof ActivityPosition.Type | undefined, take: number) =>
        Effect.orDie(feed({ agentId, ...filters, after: after ?? null, take })).pipe(
          Effect.map((items) => items.map((item) => ({ item, position: [item.occurredAt.toISOString(), item.publicId] as const })))
        )
    }
  })
}) {}
