/**
 * SQL of the Mesh area: mesh publishers (spec §2.7) and per-workspace publisher quotas.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { MeshPublisher } from "./Schemas.js"


/** A workspace's quota and use, as seen by one account (role null: not an ACTIVE member). */
const WorkspaceQuota = Schema.Struct({
  role: Schema.NullOr(Schema.String),
  maxPublishers: Schema.NullOr(Schema.Number),
  publishers: Schema.Number
})

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /**
   * The caller's role, the workspace's quota (null: the default) and its publishers
   * that count against it (all but REVOKED), locking the workspace row so concurrent
   * registrations count one after another. None when the workspace does not exist.
   */
  const lockQuota = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: Schema.String, accountId: Schema.String }),
    Result: WorkspaceQuota,
    execute: ({ accountId, workspaceId }) =>
      sql`SELECT m.role, q.max_publishers AS "maxPublishers",
            (SELECT count(*)::int FROM mesh_publishers p WHERE p.workspace_id = w.id AND p.state <> 'REVOKED') AS publishers
          FROM workspaces w
          LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
          LEFT JOIN mesh_publisher_quotas q ON q.workspace_id = w.id
          WHERE w.id = ${workspaceId}
          FOR UPDATE OF w`
  })

  /** Whether the agent is one of the workspace's (it has a service there). */
  const isWorkspaceAgent = (r: { workspaceId: string; agentId: string }) =>
    sql`SELECT 1 FROM services WHERE workspace_id = ${r.workspaceId} AND agent_id = ${r.agentId} LIMIT 1`.pipe(
      Effect.map((rows) => rows.length > 0)
    )

  /** Inserts a PENDING publisher; none when its key fingerprint is already registered. */
  const insert = (p: {
    readonly id: string
    readonly workspaceId: string
    readonly entityId: string | null
    readonly publicKeyId: string
    readonly publicKey: Uint8Array
    readonly fingerprint: string
    readonly allowedSignalTypes: ReadonlyArray<string>
    readonly perMinute: number
    readonly burst: number
    readonly at: Date
  }) =>
    sql<{ id: string }>`INSERT INTO mesh_publishers ${
      sql.insert({
        id: p.id,
        workspace_id: p.workspaceId,
        entity_id: p.entityId,
        public_key_id: p.publicKeyId,
        public_key: Buffer.from(p.publicKey),
        public_key_fingerprint: p.fingerprint,
        state: "PENDING",
        allowed_signal_types: JSON.stringify(p.allowedSignalTypes),
        rate_per_minute: p.perMinute,
        rate_burst: p.burst,
        created_at: p.at
      })
    } ON CONFLICT (public_key_fingerprint) DO NOTHING RETURNING id`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.id))
    )

  /** The publisher in its wire shape. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: MeshPublisher,
    execute: (id) =>
      sql`SELECT id, workspace_id AS "workspaceId", entity_id AS "entityPublicId", public_key_id AS "publicKeyId",
            public_key_fingerprint AS "publicKeyFingerprint", state, allowed_signal_types AS "allowedSignalTypes",
            json_build_object('perMinute', rate_per_minute, 'burst', rate_burst) AS "ratePolicy", api_ts(created_at) AS "createdAt"
          FROM mesh_publishers WHERE id = ${id}`
  })

  return { lockQuota, isWorkspaceAgent, insert, findById } as const
})

/** SQL of the Mesh area. */
export class MeshRepo extends Effect.Service<MeshRepo>()("agent-directory/MeshRepo", { effect: make }) {}
