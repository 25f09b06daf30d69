/** SQL of the Workspaces area (spec §2.12): workspaces, members, invitations. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { Workspace, WorkspaceInvitation, WorkspaceMember } from "../../schema/workspaces.js"

/** Keyset position in a member or invitation list: creation time (ISO, µs) and id; oldest first. */
export const ListPosition = Schema.Tuple(Schema.String, Schema.String)
type ListPosition = typeof ListPosition.Type

/** The workspace header as seen by a member (no lists yet). */
const WorkspaceHeader = Workspace.omit("members", "invitations", "membersNextCursor", "invitationsNextCursor")
const HeaderRow = Schema.Struct({ ...WorkspaceHeader.fields, locked: Schema.Boolean })
const MemberRow = Schema.Struct({ ...WorkspaceMember.fields, sortAt: Schema.String })
const InvitationRow = Schema.Struct({ ...WorkspaceInvitation.fields, sortAt: Schema.String })

const sortKey = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

export class WorkspacesRepo extends Effect.Service<WorkspacesRepo>()("agent-directory/WorkspacesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const after = (position: ListPosition | null, at: string, id: string) =>
      position === null ? sql`` : sql`AND (${sql.literal(at)}, ${sql.literal(id)}) > (${position[0]}::timestamptz, ${position[1]}::uuid)`

    /** The workspace if the account is an ACTIVE member of it (with the caller's role). */
    const header = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: Schema.String, accountId: Schema.String }),
      Result: HeaderRow,
      execute: ({ accountId, workspaceId }) =>
        sql`SELECT w.id AS "publicId", w.name, w.slug, w.state, me.role, me.is_default AS "isDefault",
              (SELECT count(*)::int FROM workspace_members c WHERE c.workspace_id = w.id AND c.state = 'ACTIVE') AS "memberCount",
              w.version::float8 AS version, api_ts(w.created_at) AS "createdAt", api_ts(w.updated_at) AS "updatedAt", w.locked
            FROM workspaces w
            JOIN workspace_members me ON me.workspace_id = w.id AND me.account_id = ${accountId} AND me.state = 'ACTIVE'
            WHERE w.id = ${workspaceId}`
    })
    const members = SqlSchema.findAll({
      Request: Schema.Struct({ workspaceId: Schema.String, after: Schema.NullOr(ListPosition), take: Schema.Number }),
      Result: MemberRow,
      execute: (r) =>
        sql`SELECT m.account_id AS "accountPublicId", a.display_name AS "displayName", a.email, m.role, m.state,
              m.is_workspace_owner AS "isWorkspaceOwner", api_ts(m.accepted_at) AS "acceptedAt",
              api_ts(m.revoked_at) AS "revokedAt", m.version::float8 AS version, api_ts(m.created_at) AS "createdAt",
              ${sql.literal(sortKey("m.created_at"))} AS "sortAt"
            FROM workspace_members m JOIN accounts a ON a.id = m.account_id
            WHERE m.workspace_id = ${r.workspaceId} ${after(r.after, "m.created_at", "m.account_id")}
            ORDER BY m.created_at, m.account_id LIMIT ${r.take}`
    })
    const invitations = SqlSchema.findAll({
      Request: Schema.Struct({ workspaceId: Schema.String, after: Schema.NullOr(ListPosition), take: Schema.Number }),
      Result: InvitationRow,
      execute: (r) =>
        sql`SELECT i.id AS "publicId", i.recipient_email AS "recipientEmail", i.role, i.state,
              json_build_object('publicId', inviter.id, 'displayName', inviter.display_name) AS "invitedBy",
              i.accepted_by AS "acceptedByAccountPublicId", api_ts(i.expires_at) AS "expiresAt",
              api_ts(i.accepted_at) AS "acceptedAt", api_ts(i.revoked_at) AS "revokedAt",
              i.version::float8 AS version, api_ts(i.created_at) AS "createdAt",
              ${sql.literal(sortKey("i.created_at"))} AS "sortAt"
            FROM workspace_invitations i JOIN accounts inviter ON inviter.id = i.invited_by
            WHERE i.workspace_id = ${r.workspaceId} ${after(r.after, "i.created_at", "i.id")}
            ORDER BY i.created_at, i.id LIMIT ${r.take}`
    })
    /** Separates each row's sort key from the item: the position is (sortAt, the item's id). */
    const split = <A extends { readonly sortAt: string }>(rows: ReadonlyArray<A>, idOf: (row: A) => string) =>
      rows.map((row) => {
        const { sortAt, ...item } = row
        return { item, position: [sortAt, idOf(row)] as const }
      })
    return {
      header: (workspaceId: string, accountId: string) => Effect.orDie(header({ workspaceId, accountId })),
      members: (workspaceId: string, after: ListPosition | undefined, take: number) =>
        Effect.orDie(members({ workspaceId, after: after ?? null, take })).pipe(Effect.map((rows) => split(rows, (r) => r.accountPublicId))),
      invitations: (workspaceId: string, after: ListPosition | undefined, take: number) =>
        Effect.orDie(invitations({ workspaceId, after: after ?? null, take })).pipe(Effect.map((rows) => split(rows, (r) => r.publicId)))
    }
  })
}) {}
