/** SQL of the Accounts area: an account's browser sessions. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as SqlRows from "../../layers/SqlRows.js"
import { AccountSession, Me, MeWorkspace } from "../../schema/accounts.js"


export class AccountsRepo extends Effect.Service<AccountsRepo>()("agent-directory/AccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // per-request (Accounts_ListSessions): rows decoded synchronously, no request schema (identity)
    const live = yield* SqlRows.findAll({
      Result: AccountSession,
      execute: (r: { readonly accountId: string; readonly currentSessionId: string; readonly at: Date }) =>
        sql`SELECT id AS "sessionId", (id = ${r.currentSessionId}) AS current, api_ts(created_at) AS "createdAt",
              api_ts(authenticated_at) AS "authenticatedAt", api_ts(last_seen_at) AS "lastSeenAt",
              api_ts(expires_at) AS "expiresAt", user_agent AS "userAgent"
            FROM sessions WHERE account_id = ${r.accountId} AND revoked_at IS NULL AND expires_at > ${r.at}
            ORDER BY created_at DESC, id DESC`
    })
    const revoke = (r: { sessionId: string; accountId: string; at: Date }) =>
      sql`UPDATE sessions SET revoked_at = ${r.at}
          WHERE id = ${r.sessionId} AND account_id = ${r.accountId} AND revoked_at IS NULL
          RETURNING id`.pipe(Effect.map((rows) => rows.length), Effect.orDie)
    const owned = SqlSchema.findOne({
      Request: Schema.Struct({ sessionId: Schema.String, accountId: Schema.String }),
      Result: Schema.Struct({ id: Schema.String }),
      execute: (r) => sql`SELECT id FROM sessions WHERE id = ${r.sessionId} AND account_id = ${r.accountId}`
    })
    const account = SqlSchema.single({
      Request: Schema.String,
      Result: Schema.Struct(Me.fields).omit("workspaces"),
      execute: (id) =>
        sql`SELECT id AS "publicId", email, display_name AS "displayName", is_admin AS "isAdmin" FROM accounts WHERE id = ${id}`
    })
    const memberships = SqlSchema.findAll({
      Request: Schema.String,
      Result: MeWorkspace,
      execute: (id) =>
        sql`SELECT w.id AS "publicId", w.name, w.slug, m.role, m.is_workspace_owner AS "isWorkspaceOwner",
              m.is_default AS "isDefault"
            FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
            WHERE m.account_id = ${id} AND m.state = 'ACTIVE'
            ORDER BY m.is_default DESC, w.name, w.id`
    })
    return {
      /** The account (it exists: the caller's session refers to it) with its ACTIVE memberships. */
      me: (accountId: string) =>
        Effect.all({ account: account(accountId), workspaces: memberships(accountId) }).pipe(
          Effect.map(({ account, workspaces }) => ({ ...account, workspaces })),
          Effect.orDie
        ),
      /** The account's live sessions, newest first. */
      live: (accountId: string, currentSessionId: string, at: Date) => Effect.orDie(live({ accountId, currentSessionId, at })),
      /** Revokes one of the account's sessions; returns how many were revoked (0 or 1). */
      revoke,
      /** Whether the session exists and belongs to the account. */
      owned: (sessionId: string, accountId: string) => Effect.orDie(owned({ sessionId, accountId }))
    }
  })
}) {}
