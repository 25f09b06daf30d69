/** SQL of API key management: a workspace's keys as metadata, the caller's role, revocation. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { ApiKey } from "../Schemas.js"
import { WorkspaceRole } from "../../../schema/workspaces.js"

export class ApiKeysRepo extends Effect.Service<ApiKeysRepo>()("agent-directory/ApiKeysRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id AS "publicId", name, prefix, scopes, environment, state, allowed_origins AS "allowedOrigins",
      api_ts(created_at) AS "createdAt", api_ts(last_used_at) AS "lastUsedAt", api_ts(expires_at) AS "expiresAt",
      api_ts(revoked_at) AS "revokedAt"`
    const role = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: Schema.String, accountId: Schema.String }),
      Result: Schema.Struct({ role: WorkspaceRole }),
      execute: (r) =>
        sql`SELECT role FROM workspace_members
            WHERE workspace_id = ${r.workspaceId} AND account_id = ${r.accountId} AND state = 'ACTIVE'`
    })
    const list = SqlSchema.findAll({
      Request: Schema.String,
      Result: ApiKey,
      execute: (workspaceId) =>
        sql`SELECT ${columns} FROM api_keys WHERE workspace_id = ${workspaceId} ORDER BY created_at DESC, id DESC`
    })
    const get = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: Schema.String, id: Schema.String }),
      Result: ApiKey,
      execute: (r) => sql`SELECT ${columns} FROM api_keys WHERE workspace_id = ${r.workspaceId} AND id = ${r.id}`
    })
    const revoke = (r: { readonly workspaceId: string; readonly id: string; readonly at: Date }) =>
      sql`UPDATE api_keys SET state = 'REVOKED', revoked_at = ${r.at}
          WHERE workspace_id = ${r.workspaceId} AND id = ${r.id} AND state <> 'REVOKED'`
    return {
      /** The account's role in the workspace, if it is an ACTIVE member. */
      role: (workspaceId: string, accountId: string) =>
        Effect.orDie(role({ workspaceId, accountId })).pipe(Effect.map(Option.map((r) => r.role))),
      /** The workspace's keys (metadata), newest first. */
      list: (workspaceId: string) => Effect.orDie(list(workspaceId)),
      /** One key of the workspace (metadata). */
      get: (workspaceId: string, id: string) => Effect.orDie(get({ workspaceId, id })),
      /** Revokes a key unless it already is; revoking twice changes nothing. */
      revoke: (r: { readonly workspaceId: string; readonly id: string; readonly at: Date }) => Effect.orDie(revoke(r))
    }
  })
}) {}
