/**
 * SQL of agent registration (Agents_CreateAgent, Agents_UpdateAgent, Agents_RetireAgent):
 * the caller's role in a workspace, the insert, and the one conditional UPDATE of each
 * versioned command with the read that explains a refusal.
 */
import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Option, Schema } from "effect"
import type { AgentLink } from "../../../schema/agents.js"
import { updateVersioned } from "../../db/versioned.js"
import { markAgentEvidence } from "../../trust/index.js"

/** An agent as a versioned command sees it: version, state, the caller's role (null: not a member), whether a slug is taken. */
const CommandRow = Schema.Struct({
  version: Schema.Number,
  state: Schema.String,
  role: Schema.NullOr(Schema.String),
  slugTaken: Schema.Boolean
})
export type CommandRow = typeof CommandRow.Type

/** A PostgreSQL unique violation (SQLSTATE 23505). */
const isUniqueViolation = (e: unknown): e is SqlError =>
  e instanceof SqlError && (e.cause as { readonly code?: unknown } | undefined)?.code === "23505"

/** Who runs a versioned command on which agent, at which version and time, with which roles allowed. */
export interface VersionedAgentCommand {
  readonly id: string
  readonly accountId: string
  readonly expectedVersion: number
  readonly roles: ReadonlyArray<string>
  readonly at: Date
}

/** The fields Agents_UpdateAgent changes; an absent one stays as it is. */
export interface AgentChanges {
  readonly name?: string | undefined
  readonly canonicalSlug?: string | undefined
  readonly tagline?: string | null | undefined
  readonly description?: string | undefined
  readonly links?: ReadonlyArray<AgentLink> | undefined
}

export class RegistrationRepo extends Effect.Service<RegistrationRepo>()("agent-directory/AgentRegistrationRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The caller's ACTIVE role in the workspace: none when the workspace does not exist, null when not a member. */
    const workspaceRole = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: Schema.String, accountId: Schema.String }),
      Result: Schema.Struct({ role: Schema.NullOr(Schema.String) }),
      execute: ({ accountId, workspaceId }) =>
        sql`SELECT m.role FROM workspaces w
            LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
            WHERE w.id = ${workspaceId}`
    })

    /**
     * Inserts a listed, UNVERIFIED agent operated by the workspace; false when the slug is
     * taken (ON CONFLICT waits for a concurrent insert of the same slug, so two never both win).
     */
    const insert = (a: {
      readonly id: string
      readonly workspaceId: string
      readonly name: string
      readonly canonicalSlug: string
      readonly tagline: string | null
      readonly description: string
      readonly links: ReadonlyArray<AgentLink>
      readonly at: Date
    }) =>
      sql<{ id: string }>`INSERT INTO agents ${
        sql.insert({
          id: a.id,
          canonical_slug: a.canonicalSlug,
          name: a.name,
          rank: null,
          tagline: a.tagline,
          description: a.description,
          star_count: "0",
          verification_state: "UNVERIFIED",
          listed_at: a.at,
          workspace_id: a.workspaceId,
          links: JSON.stringify(a.links),
          created_at: a.at,
          updated_at: a.at
        })
      } ON CONFLICT (canonical_slug) DO NOTHING RETURNING id`.pipe(
        // a new listed agent: its projection (trust at the prior) and the ranks
        Effect.tap((rows) => rows.length === 1 ? markEvidence(a.id, a.at) : Effect.void),
        Effect.map((rows) => rows.length === 1)
      )

    const markEvidence = (agentId: string, at: Date) =>
      Effect.provideService(markAgentEvidence(agentId, at), SqlClient.SqlClient, sql)

    /** The agent as a command by `accountId` sees it (none: no such agent); `slug` is checked against the other agents. */
    const current = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, accountId: Schema.String, slug: Schema.NullOr(Schema.String) }),
      Result: CommandRow,
      execute: ({ accountId, id, slug }) =>
        sql`SELECT a.version::float8 AS version, a.state, m.role,
              ${slug === null ? sql`false` : sql`EXISTS (SELECT 1 FROM agents o WHERE o.canonical_slug = ${slug} AND o.id <> a.id)`}
                AS "slugTaken"
            FROM agents a
            LEFT JOIN workspace_members m ON m.workspace_id = a.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
            WHERE a.id = ${id}`
    })

    /**
     * The one conditional UPDATE of a versioned agent command: `set` on an ACTIVE agent at
     * `expectedVersion` whose workspace gives `accountId` one of `roles`, and (when `slug`
     * is given) whose new slug no other agent holds. Returns the new version, or none.
     */
    const update = (u: VersionedAgentCommand & { readonly slug: string | null; readonly set: Statement.Fragment }) =>
      Effect.provideService(updateVersioned({
        table: "agents",
        id: u.id,
        expectedVersion: u.expectedVersion,
        set: sql`${u.set}, updated_at = ${u.at}`,
        fromStates: ["ACTIVE"],
        where: [
          sql`EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = agents.workspace_id
                AND m.account_id = ${u.accountId} AND m.state = 'ACTIVE' AND m.role IN ${sql.in(u.roles)})`,
          ...(u.slug === null ? [] : [sql`NOT EXISTS (SELECT 1 FROM agents o WHERE o.canonical_slug = ${u.slug} AND o.id <> agents.id)`])
        ]
      }), SqlClient.SqlClient, sql)

    /** Agents_UpdateAgent's UPDATE: only the fields present in `changes` are set (at least one is). */
    const edit = (u: VersionedAgentCommand & { readonly changes: AgentChanges }) => {
      const c = u.changes
      const parts = [
        ...(c.name === undefined ? [] : [sql`name = ${c.name}`]),
        ...(c.canonicalSlug === undefined ? [] : [sql`canonical_slug = ${c.canonicalSlug}`]),
        ...(c.tagline === undefined ? [] : [sql`tagline = ${c.tagline}`]),
        ...(c.description === undefined ? [] : [sql`description = ${c.description}`]),
        ...(c.links === undefined ? [] : [sql`links = ${JSON.stringify(c.links)}::jsonb`])
      ]
      // a concurrent write of the same slug can slip past the NOT EXISTS: its unique violation
      // (rolled back to the savepoint) is "no row changed", which `current` then explains
      return sql.withTransaction(update({ ...u, slug: c.canonicalSlug ?? null, set: sql.csv(parts) })).pipe(
        Effect.catchIf(isUniqueViolation, () => Effect.succeed(Option.none<number>()))
      )
    }

    /** Agents_RetireAgent's UPDATE: RETIRED, unlisted, `retired_at` = `at`. */
    const retire = (u: VersionedAgentCommand) =>
      // unlisted: it leaves the ranking, the agents after it move up. The evidence mark comes
      // before the agent's row is locked, so a projector drain (which holds its marks, then re-ranks agents)
      // never waits for this transaction while it waits for the drain; a refused retirement rolls it back
      markEvidence(u.id, u.at).pipe(
        Effect.zipRight(update({ ...u, slug: null, set: sql`state = 'RETIRED', retired_at = ${u.at}, listed_at = NULL` }))
      )

    return {
      workspaceRole: (workspaceId: string, accountId: string) => workspaceRole({ workspaceId, accountId }),
      insert,
      current: (id: string, accountId: string, slug: string | null) => current({ id, accountId, slug }),
      edit,
      retire
    }
  })
}) {}
