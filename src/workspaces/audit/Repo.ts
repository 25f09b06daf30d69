/** SQL of the audit trail's reader (table of migration 0031): one workspace's events, newest first. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DateTimeZ } from "../../../schema/common.js"
import type { AuditEvent } from "./Schemas.js"

/** Keyset position of an event: `created_at` (text, microseconds) and the id; newest first. */
export const AuditPosition = Schema.Tuple(Schema.String, Schema.String)

const Row = Schema.Struct({
  publicId: Schema.String,
  action: Schema.String,
  actorPublicId: Schema.NullOr(Schema.String),
  actorDisplayName: Schema.NullOr(Schema.String),
  targetType: Schema.String,
  targetId: Schema.String,
  details: Schema.Unknown,
  clientAddress: Schema.NullOr(Schema.String),
  requestId: Schema.NullOr(Schema.String),
  createdAt: DateTimeZ,
  position: Schema.String
})

/** Reads `audit_events`. Requires `SqlClient`. */
export class AuditEventsRepo extends Effect.Service<AuditEventsRepo>()("agent-directory/AuditEventsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const listRows = SqlSchema.findAll({
      Request: Schema.Struct({
        workspaceId: Schema.String,
        action: Schema.NullOr(Schema.String),
        since: Schema.NullOr(Schema.String),
        after: Schema.NullOr(AuditPosition),
        take: Schema.Number
      }),
      Result: Row,
      execute: ({ action, after, since, take, workspaceId }) =>
        sql`SELECT e.id AS "publicId", e.action, e.actor_account_id AS "actorPublicId", a.display_name AS "actorDisplayName",
              e.target_type AS "targetType", e.target_id AS "targetId", e.details, e.client_address AS "clientAddress",
              e.request_id AS "requestId", api_ts(e.created_at) AS "createdAt",
              to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
            FROM audit_events e
            LEFT JOIN accounts a ON a.id = e.actor_account_id
            WHERE e.workspace_id = ${workspaceId}
              ${action === null ? sql`` : sql`AND e.action = ${action}`}
              ${since === null ? sql`` : sql`AND e.created_at >= ${since}::timestamptz`}
              ${after === null ? sql`` : sql`AND (e.created_at, e.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`}
            ORDER BY e.created_at DESC, e.id DESC
            LIMIT ${take}`
    })

    /** One page of the workspace's events (newest first) with their keyset positions; `since` ISO 8601. */
    const list = (input: {
      readonly workspaceId: string
      readonly action: string | null
      readonly since: string | null
      readonly after: typeof AuditPosition.Type | undefined
      readonly take: number
    }) =>
      Effect.map(listRows({ ...input, after: input.after ?? null }), (rows) =>
        rows.map(({ actorDisplayName, actorPublicId, position, targetId, targetType, details, ...rest }) => ({
          event: {
            ...rest,
            actor: actorPublicId === null ? null : { publicId: actorPublicId, displayName: actorDisplayName ?? "" },
            target: { type: targetType, id: targetId },
            details: (typeof details === "string" ? JSON.parse(details) : details) as AuditEvent["details"]
          },
          position: [position, rest.publicId] as const
        }))).pipe(Effect.orDie)

    return { list }
  })
}) {}
