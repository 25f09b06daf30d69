/** SQL of the Workspaces area (spec §2.12, §3): workspaces, members, invitations, the lifecycle. */
import { SqlClient, type SqlError, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AdminWorkspace, Workspace, WorkspaceInvitation, WorkspaceMember, WorkspaceSummary } from "../../schema/workspaces.js"

/** Keyset position in a member or invitation list: creation time (ISO, µs) and id; oldest first. */
export const ListPosition = Schema.Tuple(Schema.String, Schema.String)
type ListPosition = typeof ListPosition.Type

/** The workspace header as seen by a member (no lists yet). */
const WorkspaceHeader = Workspace.omit("members", "invitations", "membersNextCursor", "invitationsNextCursor")
const HeaderRow = Schema.Struct({ ...WorkspaceHeader.fields, locked: Schema.Boolean })
const MemberRow = Schema.Struct({ ...WorkspaceMember.fields, sortAt: Schema.String })
const InvitationRow = Schema.Struct({ ...WorkspaceInvitation.fields, sortAt: Schema.String })

/**
 * Keyset position in the caller's workspace list: 0 for the default workspace and 1 for the
 * others, the name (compared byte-wise, `COLLATE "C"`, so every database orders alike), the id.
 */
export const WorkspaceListPosition = Schema.Tuple(Schema.Number, Schema.String, Schema.String)
type WorkspaceListPosition = typeof WorkspaceListPosition.Type
const SummaryRow = Schema.Struct({ ...WorkspaceSummary.fields, rank: Schema.Number })

/** What explains a refused workspace command: the version, the state, the caller's role (null: not an ACTIVE member). */
const CurrentRow = Schema.Struct({ version: Schema.Number, state: Schema.String, role: Schema.NullOr(Schema.String) })

/** Whether `error` is PostgreSQL's unique violation (23505), on the server and on PGlite alike. */
const isUniqueViolation = (error: unknown): boolean => {
  const cause = (error as { readonly cause?: { readonly code?: unknown } } | null)?.cause
  return cause?.code === "23505"
}

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
    const summaries = SqlSchema.findAll({
      Request: Schema.Struct({ accountId: Schema.String, after: Schema.NullOr(WorkspaceListPosition), take: Schema.Number }),
      Result: SummaryRow,
      execute: ({ accountId, after: position, take }) =>
        sql`SELECT w.id AS "publicId", w.name, w.slug, w.state, me.role, me.is_default AS "isDefault",
              (SELECT count(*)::int FROM workspace_members c WHERE c.workspace_id = w.id AND c.state = 'ACTIVE') AS "memberCount",
              w.version::float8 AS version, api_ts(w.created_at) AS "createdAt", api_ts(w.updated_at) AS "updatedAt",
              CASE WHEN me.is_default THEN 0 ELSE 1 END AS rank
            FROM workspace_members me JOIN workspaces w ON w.id = me.workspace_id
            WHERE me.account_id = ${accountId} AND me.state = 'ACTIVE'
              ${
          position === null ? sql`` : sql`AND (CASE WHEN me.is_default THEN 0 ELSE 1 END, w.name COLLATE "C", w.id)
                > (${position[0]}::int, ${position[1]} COLLATE "C", ${position[2]}::uuid)`
        }
            ORDER BY rank, w.name COLLATE "C", w.id LIMIT ${take}`
    })
    const current = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: Schema.String, accountId: Schema.String }),
      Result: CurrentRow,
      execute: (r) =>
        sql`SELECT w.version::float8 AS version, w.state, me.role
            FROM workspaces w
            LEFT JOIN workspace_members me ON me.workspace_id = w.id AND me.account_id = ${r.accountId} AND me.state = 'ACTIVE'
            WHERE w.id = ${r.workspaceId}`
    })
    const adminView = SqlSchema.findOne({
      Request: Schema.String,
      Result: AdminWorkspace,
      execute: (workspaceId) =>
        sql`SELECT w.id AS "publicId", w.name, w.slug, w.state,
              (SELECT count(*)::int FROM workspace_members c WHERE c.workspace_id = w.id AND c.state = 'ACTIVE') AS "memberCount",
              w.version::float8 AS version, api_ts(w.created_at) AS "createdAt", api_ts(w.updated_at) AS "updatedAt"
            FROM workspaces w WHERE w.id = ${workspaceId}`
    })
    /** A caller-is-member-with-one-of-`roles` condition on the row of `workspaces`. */
    const memberWith = (accountId: string, roles: ReadonlyArray<string>) =>
      sql`EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = workspaces.id AND m.account_id = ${accountId}
            AND m.state = 'ACTIVE' AND m.role IN ${sql.in(roles)})`

    /** Runs `self` in a savepoint; a unique violation (the slug) is `onTaken`'s failure, other SQL failures defects. */
    const uniqueSlug = <A, E>(self: Effect.Effect<A, SqlError.SqlError>, onTaken: () => E): Effect.Effect<A, E> =>
      sql.withTransaction(self).pipe(
        Effect.catchTag("SqlError", (error) => isUniqueViolation(error) ? Effect.fail(onTaken()) : Effect.die(error))
      )

    return {
      /** Locks the account's row until the transaction ends (serialises its workspace creations). */
      lockAccount: (accountId: string) => Effect.orDie(sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`).pipe(Effect.asVoid),
      /** How many workspaces (not CLOSED) the account owns as an ACTIVE member. */
      ownedCount: (accountId: string) =>
        Effect.orDie(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
          WHERE m.account_id = ${accountId} AND m.is_workspace_owner AND m.state = 'ACTIVE' AND w.state <> 'CLOSED'`)
          .pipe(Effect.map((rows) => rows[0]?.n ?? 0)),
      /** Whether the account has a default workspace among its ACTIVE memberships. */
      hasDefault: (accountId: string) =>
        Effect.orDie(sql`SELECT 1 FROM workspace_members WHERE account_id = ${accountId} AND state = 'ACTIVE' AND is_default`)
          .pipe(Effect.map((rows) => rows.length > 0)),
      /** The slugs in use that are `base` or `base-…`. */
      slugsLike: (base: string) =>
        Effect.orDie(sql<{ readonly slug: string }>`SELECT slug FROM workspaces WHERE slug = ${base} OR slug LIKE ${base + "-%"}`)
          .pipe(Effect.map((rows) => new Set(rows.map((r) => r.slug)))),
      /** Inserts an ACTIVE workspace (version 1); false when the slug is taken (nothing inserted). */
      insert: (w: { readonly id: string; readonly name: string; readonly slug: string; readonly createdBy: string; readonly at: Date }) =>
        Effect.orDie(sql`INSERT INTO workspaces (id, name, slug, state, locked, version, created_by, created_at, updated_at)
          VALUES (${w.id}, ${w.name}, ${w.slug}, 'ACTIVE', false, 1, ${w.createdBy}, ${w.at}, ${w.at})
          ON CONFLICT (slug) DO NOTHING RETURNING id`).pipe(Effect.map((rows) => rows.length === 1)),
      /** Adds the account as the workspace's ACTIVE OWNER member (`is_workspace_owner`). */
      insertOwner: (m: { readonly workspaceId: string; readonly accountId: string; readonly isDefault: boolean; readonly at: Date }) =>
        Effect.orDie(sql`INSERT INTO workspace_members (workspace_id, account_id, role, state, is_workspace_owner, is_default,
            accepted_at, version, created_at)
          VALUES (${m.workspaceId}, ${m.accountId}, 'OWNER', 'ACTIVE', true, ${m.isDefault}, ${m.at}, 1, ${m.at})`).pipe(Effect.asVoid),
      /** One page of the account's workspaces (ACTIVE memberships), default first, then by name and id. */
      list: (accountId: string, after: WorkspaceListPosition | undefined, take: number) =>
        Effect.orDie(summaries({ accountId, after: after ?? null, take })).pipe(Effect.map((rows) =>
          rows.map(({ rank, ...item }) => ({ item, position: [rank, item.name, item.publicId] as const }))
        )),
      /** The workspace's version and state and the account's role in it (null: not an ACTIVE member); none: no workspace. */
      current: (workspaceId: string, accountId: string) => Effect.orDie(current({ workspaceId, accountId })),
      /** The workspace as administrators see it. */
      adminView: (workspaceId: string) => Effect.orDie(adminView(workspaceId)),
      /**
       * Renames the workspace and/or changes its slug at `expectedVersion`, if it is ACTIVE and
       * the account holds one of `roles` (one conditional UPDATE, version + 1). Some(new version)
       * when it changed; fails with `onTaken()` when the slug is another workspace's.
       */
      update: <E>(u: {
        readonly workspaceId: string
        readonly accountId: string
        readonly roles: ReadonlyArray<string>
        readonly expectedVersion: number
        readonly name: string | undefined
        readonly slug: string | undefined
        readonly at: Date
      }, onTaken: () => E) =>
        uniqueSlug(
          sql<{ readonly version: number }>`UPDATE workspaces
            SET name = COALESCE(${u.name ?? null}, name), slug = COALESCE(${u.slug ?? null}, slug),
              version = version + 1, updated_at = ${u.at}
            WHERE id = ${u.workspaceId} AND version = ${u.expectedVersion} AND state = 'ACTIVE'
              AND ${memberWith(u.accountId, u.roles)}
            RETURNING version::float8 AS version`.pipe(Effect.map((rows) => Option.fromNullable(rows[0]?.version))),
          onTaken
        ),
      /**
       * ACTIVE → CLOSING at `expectedVersion` if the account holds one of `roles` (version + 1),
       * to be CLOSED at `closesAt`. Some(new version) when it changed.
       */
      startClosing: (c: {
        readonly workspaceId: string
        readonly accountId: string
        readonly roles: ReadonlyArray<string>
        readonly expectedVersion: number
        readonly at: Date
        readonly closesAt: Date
      }) =>
        Effect.orDie(sql<{ readonly version: number }>`UPDATE workspaces
            SET state = 'CLOSING', closing_at = ${c.at}, closes_at = ${c.closesAt}, version = version + 1, updated_at = ${c.at}
            WHERE id = ${c.workspaceId} AND version = ${c.expectedVersion} AND state = 'ACTIVE'
              AND ${memberWith(c.accountId, c.roles)}
            RETURNING version::float8 AS version`).pipe(Effect.map((rows) => Option.fromNullable(rows[0]?.version))),
      /** CLOSING → CLOSED at `at` (version + 1); false when it is not CLOSING (already closed). */
      finishClosing: (workspaceId: string, at: Date) =>
        Effect.orDie(sql`UPDATE workspaces SET state = 'CLOSED', closed_at = ${at}, version = version + 1, updated_at = ${at}
            WHERE id = ${workspaceId} AND state = 'CLOSING' RETURNING id`).pipe(Effect.map((rows) => rows.length === 1)),
      /** ACTIVE → SUSPENDED with `reason` (version + 1); false when it is not ACTIVE. */
      suspend: (workspaceId: string, reason: string, at: Date) =>
        Effect.orDie(sql`UPDATE workspaces SET state = 'SUSPENDED', suspended_at = ${at}, suspension_reason = ${reason},
              version = version + 1, updated_at = ${at}
            WHERE id = ${workspaceId} AND state = 'ACTIVE' RETURNING id`).pipe(Effect.map((rows) => rows.length === 1)),
      /** SUSPENDED → ACTIVE (version + 1); false when it is not SUSPENDED. */
      resume: (workspaceId: string, at: Date) =>
        Effect.orDie(sql`UPDATE workspaces SET state = 'ACTIVE', suspended_at = NULL, suspension_reason = NULL,
              version = version + 1, updated_at = ${at}
            WHERE id = ${workspaceId} AND state = 'SUSPENDED' RETURNING id`).pipe(Effect.map((rows) => rows.length === 1)),
      /** The workspace's API keys not yet revoked become REVOKED at `at`; how many. */
      revokeApiKeys: (workspaceId: string, at: Date) =>
        Effect.orDie(sql`UPDATE api_keys SET state = 'REVOKED', revoked_at = ${at}
          WHERE workspace_id = ${workspaceId} AND state <> 'REVOKED' RETURNING id`).pipe(Effect.map((rows) => rows.length)),
      /** The workspace if the account is an ACTIVE member of it, with the caller's role and the `locked` flag. */
      header: (workspaceId: string, accountId: string) => Effect.orDie(header({ workspaceId, accountId })),
      members: (workspaceId: string, after: ListPosition | undefined, take: number) =>
        Effect.orDie(members({ workspaceId, after: after ?? null, take })).pipe(Effect.map((rows) => split(rows, (r) => r.accountPublicId))),
      invitations: (workspaceId: string, after: ListPosition | undefined, take: number) =>
        Effect.orDie(invitations({ workspaceId, after: after ?? null, take })).pipe(Effect.map((rows) => split(rows, (r) => r.publicId)))
    }
  })
}) {}
