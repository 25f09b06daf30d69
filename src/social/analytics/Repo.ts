/** SQL of the analytics area: product events, analytics exports and the rows exports are built from. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AnalyticsExport } from "../../../schema/analytics.js"

const ExportRow = Schema.Struct({ ...AnalyticsExport.fields, downloadToken: Schema.Null })

/** Columns of an export in its wire shape (without the download token, which is derived). */
const exportColumns = `e.id, e.agent_id AS "entityPublicId", e.export_type AS "exportType",
  json_build_object('from', to_char(e.range_from, 'YYYY-MM-DD'), 'to', to_char(e.range_to, 'YYYY-MM-DD')) AS range,
  e.format, e.state, e.row_count::text AS "rowCount", api_ts(e.expires_at) AS "expiresAt", NULL AS "downloadToken",
  e.error_code AS "errorCode", api_ts(e.created_at) AS "createdAt", api_ts(e.completed_at) AS "completedAt"`

/** A new export row. */
export interface NewExport {
  readonly id: string
  readonly agentId: string
  readonly accountId: string
  readonly exportType: string
  readonly from: string
  readonly to: string
  readonly format: string
  readonly expiresAt: Date
  readonly at: Date
}

export class AnalyticsRepo extends Effect.Service<AnalyticsRepo>()("agent-directory/AnalyticsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const findExport = SqlSchema.findOne({
      Request: Schema.String,
      Result: ExportRow,
      execute: (id) => sql`SELECT ${sql.literal(exportColumns)} FROM analytics_exports e WHERE e.id = ${id}`
    })
    return {
      /** Of `ids`, the agents that exist and are listed in the directory (public) at `at`. */
      publicAgents: (ids: ReadonlyArray<string>, at: Date) =>
        ids.length === 0 ? Effect.succeed(new Set<string>()) : sql<{ id: string }>`
          SELECT id FROM agents WHERE id IN ${sql.in(ids)} AND listed_at IS NOT NULL AND listed_at <= ${at}`.pipe(
          Effect.map((rows) => new Set(rows.map((r) => r.id)))
        ),
      /** Stores an event unless its id is taken; returns the digest stored under the id (ours or the earlier one). */
      insertEvent: (e: {
        readonly eventId: string
        readonly agentId: string
        readonly name: string
        readonly category: string
        readonly occurredAt: Date
        readonly properties: unknown
        readonly subject: string
        readonly digest: string
        readonly receiptId: string
        readonly at: Date
      }) =>
        Effect.gen(function*() {
          const inserted = yield* sql<{ digest: string }>`
            INSERT INTO product_events (event_id, agent_id, name, category, occurred_at, properties, subject, digest, receipt_id, received_at)
            VALUES (${e.eventId}, ${e.agentId}, ${e.name}, ${e.category}, ${e.occurredAt}, ${JSON.stringify(e.properties)}::jsonb,
                    ${e.subject}, ${e.digest}, ${e.receiptId}, ${e.at})
            ON CONFLICT (event_id) DO NOTHING RETURNING digest`
          if (inserted.length > 0) return { inserted: true, digest: e.digest }
          const [row] = yield* sql<{ digest: string }>`SELECT digest FROM product_events WHERE event_id = ${e.eventId}`
          return { inserted: false, digest: row!.digest }
        }),
      /** The agent's operating workspace and the account's active role there; none if no such agent. */
      agentAccess: (agentId: string, accountId: string) =>
        sql<{ workspaceId: string | null; role: string | null }>`
          SELECT a.workspace_id AS "workspaceId", m.role FROM agents a
            LEFT JOIN workspace_members m ON m.workspace_id = a.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
           WHERE a.id = ${agentId}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0]))),
      insertExport: (e: NewExport) =>
        sql`INSERT INTO analytics_exports (id, agent_id, requested_by, export_type, range_from, range_to, format, state, expires_at, created_at)
            VALUES (${e.id}, ${e.agentId}, ${e.accountId}, ${e.exportType}, ${e.from}::date, ${e.to}::date, ${e.format},
                    'REQUESTED', ${e.expiresAt}, ${e.at})`,
      /** An export in its wire shape (downloadToken null), or none. */
      findExport: (id: string) => findExport(id).pipe(Effect.catchTag("ParseError", Effect.die)),
      /** Moves a REQUESTED or QUEUED export to BUILDING; false when it is in another state. */
      startBuilding: (id: string) =>
        sql`UPDATE analytics_exports SET state = 'BUILDING' WHERE id = ${id} AND state IN ('REQUESTED', 'QUEUED', 'BUILDING')
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0)),
      finishAvailable: (id: string, file: Uint8Array, rowCount: number, at: Date, expiresAt: Date) =>
        sql`UPDATE analytics_exports SET state = 'AVAILABLE', file_content = ${file}, row_count = ${rowCount},
              completed_at = ${at}, expires_at = ${expiresAt}, error_code = NULL
            WHERE id = ${id} AND state = 'BUILDING'`,
      finishFailed: (id: string, errorCode: string, at: Date) =>
        sql`UPDATE analytics_exports SET state = 'FAILED', error_code = ${errorCode}, completed_at = ${at}
            WHERE id = ${id} AND state IN ('REQUESTED', 'QUEUED', 'BUILDING')`,
      /** AVAILABLE → EXPIRED once `expiresAt` has passed, the file removed; no change in any other case. */
      expire: (id: string, at: Date) =>
        sql`UPDATE analytics_exports SET state = 'EXPIRED', file_content = NULL
            WHERE id = ${id} AND state = 'AVAILABLE' AND expires_at <= ${at}`,
      /** What the export workflow needs to build an export. */
      exportSpec: (id: string) =>
        sql<{ agentId: string; exportType: string; from: string; to: string; format: string; state: string }>`
          SELECT agent_id AS "agentId", export_type AS "exportType", to_char(range_from, 'YYYY-MM-DD') AS "from",
                 to_char(range_to, 'YYYY-MM-DD') AS "to", format, state
            FROM analytics_exports WHERE id = ${id}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0]))),
      /** The built file of an export, with its state and expiry. */
      exportFile: (id: string) =>
        sql<{ state: string; format: string; expiresAt: Date; file: Uint8Array | null }>`
          SELECT state, format, expires_at AS "expiresAt", file_content AS file FROM analytics_exports WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),
      /** Product events of an agent that occurred on the days `from`..`to` (UTC), oldest first. */
      productEventRows: (agentId: string, from: string, to: string) =>
        sql<Record<string, unknown>>`
          SELECT event_id AS "eventId", name, category, api_ts(occurred_at) AS "occurredAt", properties
            FROM product_events
           WHERE agent_id = ${agentId} AND occurred_at >= ${from}::date AND occurred_at < ${to}::date + 1
           ORDER BY occurred_at, event_id`,
      /** Public activity of an agent that occurred on the days `from`..`to` (UTC), oldest first. */
      activityRows: (agentId: string, from: string, to: string) =>
        sql<Record<string, unknown>>`
          SELECT a.id AS "publicId", a.activity_key AS "activityKey", a.event_version AS "eventVersion", a.summary,
                 a.source_kind AS "sourceKind", n.key AS network, a.transaction_reference AS "transactionReference",
                 api_ts(a.occurred_at) AS "occurredAt"
            FROM agent_activity a LEFT JOIN networks n ON n.id = a.network_id
           WHERE a.agent_id = ${agentId} AND a.occurred_at >= ${from}::date AND a.occurred_at < ${to}::date + 1
           ORDER BY a.occurred_at, a.id`,
      /**
       * The paid orders for the agent (an order names the agent of the offer it bought) whose
       * `paid_at` is on the days `from`..`to` (UTC), oldest payment first, with their entitlement
       * (the latest, if any): what REVENUE and SERVICE exports hold.
       */
      paidOrderRows: (agentId: string, from: string, to: string) =>
        sql<Record<string, unknown>>`
          SELECT o.id AS "orderId", o.order_number AS "orderNumber", api_ts(o.paid_at) AS "paidAt", o.state,
                 o.product_code AS "productCode", o.product_name AS "productName", o.offer_id AS "offerId",
                 o.quantity, n.key AS network, o.asset_id AS "assetId", a.symbol, a.decimals,
                 o.total_units::text AS "totalUnits", e.code AS "entitlementCode", e.state AS "entitlementState",
                 api_ts(e.effective_from) AS "effectiveFrom", api_ts(e.effective_until) AS "effectiveUntil"
            FROM orders o
            JOIN networks n ON n.id = o.network_id
            JOIN assets a ON a.id = o.asset_id
            LEFT JOIN LATERAL (SELECT * FROM entitlements x WHERE x.order_id = o.id
                               ORDER BY x.effective_from DESC, x.id DESC LIMIT 1) e ON true
           WHERE o.agent_id = ${agentId} AND o.paid_at >= ${from}::date AND o.paid_at < ${to}::date + 1
           ORDER BY o.paid_at, o.id`
    }
  })
}) {}
