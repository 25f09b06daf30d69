/** SQL of workspace members and ownership (spec §2.12): memberships, the owner flag, the members' API keys. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { WorkspaceMember } from "../../../schema/workspaces.js"

/** The caller's ACTIVE membership with what a command checks about the workspace. */
const AccessRow = Schema.Struct({
  role: Schema.String,
  memberVersion: Schema.Number,
  workspaceState: Schema.String,
  workspaceVersion: Schema.Number,
  locked: Schema.Boolean
})
export type Access = typeof AccessRow.Type

const Key = Schema.Struct({ workspaceId: Schema.String, accountId: Schema.String })

export class MembersRepo extends Effect.Service<MembersRepo>()("agent-directory/MembersRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const access = SqlSchema.findOne({
      Request: Key,
      Result: AccessRow,
      execute: ({ accountId, workspaceId }) =>
        sql`SELECT m.role, m.version::float8 AS "memberVersion", w.state AS "workspaceState",
              w.version::float8 AS "workspaceVersion", w.locked
            FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
            WHERE m.workspace_id = ${workspaceId} AND m.account_id = ${accountId} AND m.state = 'ACTIVE'`
    })
    const member = SqlSchema.findOne({
      Request: Key,
      Result: WorkspaceMember,
      execute: ({ accountId, workspaceId }) =>
        sql`SELECT m.account_id AS "accountPublicId", a.display_name AS "displayName", a.email, m.role, m.state,
              m.is_workspace_owner AS "isWorkspaceOwner", api_ts(m.accepted_at) AS "acceptedAt",
              api_ts(m.revoked_at) AS "revokedAt", m.version::float8 AS version, api_ts(m.created_at) AS "createdAt"
            FROM workspace_members m JOIN accounts a ON a.id = m.account_id
            WHERE m.workspace_id = ${workspaceId} AND m.account_id = ${accountId}`
    })
    const changed = (rows: ReadonlyArray<unknown>) => rows.length > 0

    const status = SqlSchema.single({
      Request: Schema.String,
      Result: Schema.Struct({ state: Schema.String, locked: Schema.Boolean }),
      execute: (workspaceId) => sql`SELECT state, locked FROM workspaces WHERE id = ${workspaceId}`
    })

    return {
      /** The workspace's state and policy lock (it exists). */
      workspaceStatus: (workspaceId: string) => Effect.orDie(status(workspaceId)),
      /** The account's ACTIVE membership of the workspace, with the workspace's state, version and lock. */
      access: (workspaceId: string, accountId: string) => access({ workspaceId, accountId }),
      /** The membership (any state) in the wire shape. */
      member: (workspaceId: string, accountId: string) => member({ workspaceId, accountId }),
      /** ACTIVE non-owner member at `expectedVersion` → `role`; false when no row matched. */
      setRole: (r: { workspaceId: string; accountId: string; role: string; expectedVersion: number }) =>
        Effect.map(
          sql`UPDATE workspace_members SET role = ${r.role}, version = version + 1
              WHERE workspace_id = ${r.workspaceId} AND account_id = ${r.accountId} AND state = 'ACTIVE'
                AND NOT is_workspace_owner AND version = ${r.expectedVersion} RETURNING 1`,
          changed
        ),
      /** ACTIVE non-owner member at `expectedVersion` → REVOKED at `at`; false when no row matched. */
      revoke: (r: { workspaceId: string; accountId: string; expectedVersion: number; at: Date }) =>
        Effect.map(
          sql`UPDATE workspace_members SET state = 'REVOKED', revoked_at = ${r.at}, is_default = false, version = version + 1
              WHERE workspace_id = ${r.workspaceId} AND account_id = ${r.accountId} AND state = 'ACTIVE'
                AND NOT is_workspace_owner AND version = ${r.expectedVersion} RETURNING 1`,
          changed
        ),
      /** Revokes the API keys `accountId` created for the workspace; returns how many were live. */
      revokeApiKeysOf: (workspaceId: string, accountId: string, at: Date) =>
        Effect.map(
          sql`UPDATE api_keys SET state = 'REVOKED', revoked_at = ${at}
              WHERE workspace_id = ${workspaceId} AND created_by = ${accountId} AND state <> 'REVOKED' RETURNING 1`,
          (rows) => rows.length
        ),
      /** The workspace at `expectedVersion` → version + 1, `updated_at` = `at` (row locked); false on a version mismatch. */
      bumpWorkspace: (workspaceId: string, expectedVersion: number, at: Date) =>
        Effect.map(
          sql`UPDATE workspaces SET version = version + 1, updated_at = ${at}
              WHERE id = ${workspaceId} AND version = ${expectedVersion} RETURNING 1`,
          changed
        ),
      /** The current owner → ADMIN (first, so the one-owner index never sees two). */
      demoteOwner: (workspaceId: string, accountId: string) =>
        sql`UPDATE workspace_members SET role = 'ADMIN', is_workspace_owner = false, version = version + 1
            WHERE workspace_id = ${workspaceId} AND account_id = ${accountId} AND is_workspace_owner AND state = 'ACTIVE'
            RETURNING 1`.pipe(Effect.map(changed)),
      /** An ACTIVE member → OWNER; false when the account is not an ACTIVE member. */
      promoteOwner: (workspaceId: string, accountId: string) =>
        sql`UPDATE workspace_members SET role = 'OWNER', is_workspace_owner = true, version = version + 1
            WHERE workspace_id = ${workspaceId} AND account_id = ${accountId} AND state = 'ACTIVE'
            RETURNING 1`.pipe(Effect.map(changed))
    }
  })
}) {}
