/**
 * SQL of agents' runtime configurations (`agent_runtime_configs`, migrations 0010 and
 * 0021) and of the grants mirrored into their runtime tools (`runtime_tools.grant_state`).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { resolveApprovedChanges } from "../../mcp/index.js"
import type { AgentRuntimeConfig, ToolGrantState } from "./Schemas.js"

/** A stored configuration row. */
interface ConfigRow {
  readonly entityPublicId: string
  readonly provider: string
  readonly model: string
  readonly instructions: string
  readonly temperature: number | null
  readonly maxOutputTokens: number | null
  readonly toolGrants: Readonly<Record<string, ToolGrantState>> | string
  readonly version: string | number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** The wire configuration of a row: grants as a list ordered by `stableName`. */
const toConfig = (row: ConfigRow): AgentRuntimeConfig => {
  const grants = (typeof row.toolGrants === "string" ? JSON.parse(row.toolGrants) : row.toolGrants) as Record<string, ToolGrantState>
  return {
    entityPublicId: row.entityPublicId,
    provider: row.provider,
    model: row.model,
    instructions: row.instructions,
    temperature: row.temperature === null ? null : Number(row.temperature),
    maxOutputTokens: row.maxOutputTokens === null ? null : Number(row.maxOutputTokens),
    toolGrants: Object.keys(grants).sort().map((stableName) => ({ stableName, grant: grants[stableName]! })),
    version: Number(row.version),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt
  }
}

/** The settings a command writes. */
export interface ConfigValues {
  readonly agentId: string
  readonly provider: string
  readonly model: string
  readonly instructions: string
  readonly temperature: number | null
  readonly maxOutputTokens: number | null
  /** `{ stableName: grant }` */
  readonly toolGrants: Readonly<Record<string, ToolGrantState>>
  readonly at: Date
}

const columns = (sql: SqlClient.SqlClient) =>
  sql`agent_id AS "entityPublicId", provider, model, instructions, temperature, max_output_tokens AS "maxOutputTokens",
      tool_grants AS "toolGrants", version, created_at AS "createdAt", updated_at AS "updatedAt"`

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const first = (rows: ReadonlyArray<ConfigRow>) => Option.map(Option.fromNullable(rows[0]), toConfig)

  /** The agent's configuration, if any. */
  const find = (agentId: string) =>
    sql<ConfigRow>`SELECT ${columns(sql)} FROM agent_runtime_configs WHERE agent_id = ${agentId}`.pipe(Effect.map(first))

  /** Creates the configuration (version 1); none when one exists already (a concurrent create won). */
  const insert = (v: ConfigValues) =>
    sql<ConfigRow>`INSERT INTO agent_runtime_configs (agent_id, provider, model, instructions, temperature, max_output_tokens,
          tool_grants, version, created_at, updated_at)
        VALUES (${v.agentId}, ${v.provider}, ${v.model}, ${v.instructions}, ${v.temperature}, ${v.maxOutputTokens},
          ${JSON.stringify(v.toolGrants)}::jsonb, 1, ${v.at}, ${v.at})
        ON CONFLICT (agent_id) DO NOTHING
        RETURNING ${columns(sql)}`.pipe(Effect.map(first))

  /** Replaces the configuration if its version is `expectedVersion` (version + 1); none otherwise. */
  const replace = (v: ConfigValues & { readonly expectedVersion: number }) =>
    sql<ConfigRow>`UPDATE agent_runtime_configs SET provider = ${v.provider}, model = ${v.model},
          instructions = ${v.instructions}, temperature = ${v.temperature}, max_output_tokens = ${v.maxOutputTokens},
          tool_grants = ${JSON.stringify(v.toolGrants)}::jsonb, version = version + 1, updated_at = ${v.at}
        WHERE agent_id = ${v.agentId} AND version = ${v.expectedVersion}
        RETURNING ${columns(sql)}`.pipe(Effect.map(first))

  /**
   * Mirrors the configuration's grants into every version of the agent's runtime tools:
   * `grant_state` = the grant of the tool's `stable_name`, null when not granted.
   */
  const mirrorGrants = (agentId: string) =>
    sql`UPDATE runtime_tools t SET grant_state = c.tool_grants ->> t.stable_name
        FROM agent_runtime_configs c
        WHERE c.agent_id = t.agent_id AND t.agent_id = ${agentId}
          AND t.grant_state IS DISTINCT FROM (c.tool_grants ->> t.stable_name)`.pipe(Effect.asVoid)

  /**
   * Records the latest definition (digest) of each of agent `agentId`'s tools `stableNames` as
   * approved by `accountId` at `at` (`runtime_tool_approvals`); a name without a tool yet is skipped.
   * Their TOOL_DEFINITION_CHANGED findings for those definitions are resolved (`resolveApprovedChanges`).
   */
  const approveCurrentDefinitions = (agentId: string, stableNames: ReadonlyArray<string>, accountId: string, at: Date) =>
    stableNames.length === 0 ? Effect.void : sql`
      INSERT INTO runtime_tool_approvals (agent_id, stable_name, definition_digest, approved_by, approved_at)
      SELECT DISTINCT ON (t.stable_name) t.agent_id, t.stable_name, t.definition_digest, ${accountId}, ${at}
      FROM runtime_tools t
      WHERE t.agent_id = ${agentId} AND t.stable_name IN ${sql.in(stableNames)} AND t.definition_digest IS NOT NULL
      ORDER BY t.stable_name, t.version DESC
      ON CONFLICT (agent_id, stable_name) DO UPDATE SET definition_digest = EXCLUDED.definition_digest,
        approved_by = EXCLUDED.approved_by, approved_at = EXCLUDED.approved_at`.pipe(
      // the approved definitions' change findings are resolved
      Effect.zipRight(Effect.provideService(resolveApprovedChanges(agentId, at), SqlClient.SqlClient, sql)),
      Effect.asVoid
    )

  return { find, insert, replace, mirrorGrants, approveCurrentDefinitions } as const
})

/** SQL of runtime configurations. Requires `SqlClient`. */
export class RuntimeConfigsRepo extends Effect.Service<RuntimeConfigsRepo>()("agent-directory/RuntimeConfigsRepo", {
  effect: make
}) {}
