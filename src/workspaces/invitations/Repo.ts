/** SQL of workspace invitations (spec §2.12): PENDING → ACCEPTED | EXPIRED | REVOKED, the token stored as its SHA-256. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { WorkspaceInvitation } from "../../../schema/workspaces.js"

/** What a command checks about an invitation. */
const InvitationState = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  recipientEmail: Schema.NullOr(Schema.String),
  role: Schema.String,
  state: Schema.String,
  expiresAt: Schema.DateFromSelf,
  version: Schema.Number
})
export type InvitationState = typeof InvitationState.Type

const stateColumns = (sql: SqlClient.SqlClient) =>
  sql`id, workspace_id AS "workspaceId", recipient_email AS "recipientEmail", role, state, expires_at AS "expiresAt",
      version::float8 AS version`

export class InvitationsRepo extends Effect.Service<InvitationsRepo>()("agent-directory/InvitationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const view = SqlSchema.findOne({
      Request: Schema.String,
      Result: WorkspaceInvitation,
      execute: (id) =>
        sql`SELECT i.id AS "publicId", i.recipient_email AS "recipientEmail", i.role, i.state,
              json_build_object('publicId', inviter.id, 'displayName', inviter.display_name) AS "invitedBy",
              i.accepted_by AS "acceptedByAccountPublicId", api_ts(i.expires_at) AS "expiresAt",
              api_ts(i.accepted_at) AS "acceptedAt", api_ts(i.revoked_at) AS "revokedAt",
              i.version::float8 AS version, api_ts(i.created_at) AS "createdAt"
            FROM workspace_invitations i JOIN accounts inviter ON inviter.id = i.invited_by
            WHERE i.id = ${id}`
    })
    const inWorkspace = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: Schema.String, id: Schema.String }),
      Result: InvitationState,
      execute: (r) => sql`SELECT ${stateColumns(sql)} FROM workspace_invitations WHERE workspace_id = ${r.workspaceId} AND id = ${r.id}`
    })
    const byToken = SqlSchema.findOne({
      Request: Schema.Uint8ArrayFromSelf,
      Result: InvitationState,
      execute: (hash) => sql`SELECT ${stateColumns(sql)} FROM workspace_invitations WHERE token_hash = ${hash} FOR UPDATE`
    })
    const ids = (rows: ReadonlyArray<{ readonly id?: unknown }>) => rows.map((r) => String(r.id))

    return {
      /** The invitation in the wire shape. */
      view: (id: string) => view(id),
      /** The invitation `id` of the workspace. */
      find: (workspaceId: string, id: string) => inWorkspace({ workspaceId, id }),
      /** The invitation whose token has SHA-256 `hash`, row locked for the accepting transaction. */
      byTokenHash: (hash: Buffer) => byToken(hash),
      /** PENDING invitations to `email` in the workspace whose time has run out → EXPIRED; their ids. */
      expireOverdue: (workspaceId: string, email: string, at: Date) =>
        Effect.map(
          sql`UPDATE workspace_invitations SET state = 'EXPIRED', version = version + 1
              WHERE workspace_id = ${workspaceId} AND lower(recipient_email) = lower(${email})
                AND state = 'PENDING' AND expires_at <= ${at} RETURNING id`,
          ids
        ),
      /** Whether a PENDING invitation to `email` (case-insensitive) exists in the workspace. */
      pendingTo: (workspaceId: string, email: string) =>
        Effect.map(
          sql`SELECT 1 FROM workspace_invitations WHERE workspace_id = ${workspaceId}
                AND lower(recipient_email) = lower(${email}) AND state = 'PENDING'`,
          (rows) => rows.length > 0
        ),
      /** Whether an ACTIVE member of the workspace has `email` (case-insensitive). */
      memberWithEmail: (workspaceId: string, email: string) =>
        Effect.map(
          sql`SELECT 1 FROM workspace_members m JOIN accounts a ON a.id = m.account_id
              WHERE m.workspace_id = ${workspaceId} AND m.state = 'ACTIVE' AND lower(a.email) = lower(${email})`,
          (rows) => rows.length > 0
        ),
      /** The account's email. */
      emailOf: (accountId: string) =>
        Effect.map(sql<{ email: string }>`SELECT email FROM accounts WHERE id = ${accountId}`, (rows) => rows[0]?.email ?? ""),
      /** A new PENDING invitation, version 1. */
      insert: (r: {
        id: string
        workspaceId: string
        recipientEmail: string
        role: string
        invitedBy: string
        tokenHash: Buffer
        expiresAt: Date
        at: Date
      }) =>
        sql`INSERT INTO workspace_invitations ${
          sql.insert({
            id: r.id,
            workspace_id: r.workspaceId,
            recipient_email: r.recipientEmail,
            role: r.role,
            state: "PENDING",
            invited_by: r.invitedBy,
            token_hash: r.tokenHash,
            expires_at: r.expiresAt,
            version: 1,
            created_at: r.at
          })
        }`,
      /** PENDING at `expectedVersion` → REVOKED; false when no row matched. */
      revoke: (id: string, expectedVersion: number, at: Date) =>
        Effect.map(
          sql`UPDATE workspace_invitations SET state = 'REVOKED', revoked_at = ${at}, version = version + 1
              WHERE id = ${id} AND state = 'PENDING' AND version = ${expectedVersion} RETURNING id`,
          (rows) => rows.length > 0
        ),
      /** PENDING → ACCEPTED by `accountId`. */
      accept: (id: string, accountId: string, at: Date) =>
        sql`UPDATE workspace_invitations SET state = 'ACCEPTED', accepted_by = ${accountId}, accepted_at = ${at},
              version = version + 1
            WHERE id = ${id} AND state = 'PENDING'`,
      /** PENDING (whatever its time) → EXPIRED; the workspace when it was PENDING. */
      expire: (id: string) =>
        Effect.map(
          sql<{ workspaceId: string }>`UPDATE workspace_invitations SET state = 'EXPIRED', version = version + 1
              WHERE id = ${id} AND state = 'PENDING' RETURNING workspace_id AS "workspaceId"`,
          (rows) => rows[0]?.workspaceId
        ),
      /**
       * The account joins with `role`: a new ACTIVE membership, or its REVOKED (or INVITED) one
       * made ACTIVE again (version + 1); it becomes the account's default workspace when it has
       * none. Returns false when the account already is an ACTIVE member.
       */
      join: (r: { workspaceId: string; accountId: string; role: string; at: Date }) =>
        Effect.map(
          sql`INSERT INTO workspace_members (workspace_id, account_id, role, state, is_workspace_owner, is_default,
                accepted_at, version, created_at)
              VALUES (${r.workspaceId}, ${r.accountId}, ${r.role}, 'ACTIVE', false,
                NOT EXISTS (SELECT 1 FROM workspace_members d WHERE d.account_id = ${r.accountId} AND d.is_default AND d.state = 'ACTIVE'),
                ${r.at}, 1, ${r.at})
              ON CONFLICT (workspace_id, account_id) DO UPDATE SET
                role = EXCLUDED.role, state = 'ACTIVE', is_workspace_owner = false, is_default = EXCLUDED.is_default,
                accepted_at = EXCLUDED.accepted_at, revoked_at = NULL, version = workspace_members.version + 1
              WHERE workspace_members.state <> 'ACTIVE'
              RETURNING 1`,
          (rows) => rows.length > 0
        )
    }
  })
}) {}
