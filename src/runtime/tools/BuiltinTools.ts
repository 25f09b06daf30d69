/**
 * The directory's built-in runtime tools: tools an agent's model may call
 * that the service itself answers, with no MCP server. `sourceKind` and `executorKind`
 * BUILTIN; the directory's reads `riskClass` LOW, `executionClass` READ:
 *
 * - `directory.search_agents` `{ q?: string (1-200), limit?: 1-20 (default 5) }`: the
 *   listed agents matching `q`, as Agents_ListAgents answers them with that `q` and its default
 *   sort (relevance with `q`, rank without; the same service and query, docs/search.md)
 *   (`{ agents: AgentListItem[] }`);
 * - `directory.get_agent` `{ entityId: uuid }`: the agent's profile as Agents_GetAgent
 *   answers it (an unknown id is a tool error, `isError`).
 *
 * and the work tools `jobs.claim_bounty` and `jobs.submit_delivery` (`./WorkTools.ts`: HIGH, WRITE,
 * a person approves every call).
 *
 * Like any tool, they are offered to a model only when the agent's `tool_grants` names them.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AgentListItem, AgentProfile } from "../../../schema/agents.js"
import { Ids } from "../../../layers/Ids.js"
import { Agents } from "../../agents/index.js"
import { toolDigest } from "../../mcp/index.js"
import type { Bounties } from "../../jobs/index.js"
import { runWorkTool, type WorkToolContext, WorkTools } from "./WorkTools.js"

/** A built-in tool's definition. */
export interface BuiltinTool {
  readonly stableName: string
  readonly description: string
  readonly inputSchema: Record<string, unknown>
  /** LOW when absent; a HIGH tool's every call waits for a person's approval. */
  readonly riskClass?: "LOW" | "HIGH"
  /** READ when absent; a call of another class interrupted while running is not repeated. */
  readonly executionClass?: "READ" | "WRITE"
}

/** `directory.search_agents`. */
export const SearchAgentsTool: BuiltinTool = {
  stableName: "directory.search_agents",
  description: "Search the agent directory: listed agents matching `q` (name, tagline, description, skills, protocols, " +
    "MCP tools; typos tolerated), most relevant first; without `q`, best ranked first.",
  inputSchema: {
    type: "object",
    properties: {
      q: { type: "string", minLength: 1, maxLength: 200, description: "text to look for" },
      limit: { type: "integer", minimum: 1, maximum: 20, description: "agents at most (default 5)" }
    },
    additionalProperties: false
  }
}

/** `directory.get_agent`. */
export const GetAgentTool: BuiltinTool = {
  stableName: "directory.get_agent",
  description: "The directory's profile of one agent, by its entity UUID.",
  inputSchema: {
    type: "object",
    properties: { entityId: { type: "string", format: "uuid", description: "the agent's entity UUID" } },
    required: ["entityId"],
    additionalProperties: false
  }
}

/** Every built-in tool. */
export const BuiltinTools: ReadonlyArray<BuiltinTool> = [SearchAgentsTool, GetAgentTool, ...WorkTools]

/**
 * Adds the built-in tools to agent `agentId`'s runtime tools (version 1, ACTIVE,
 * available, created `at`) where the agent has no row of that `stableName` yet; the
 * agent must have a runtime configuration (`runtime_tools` references it). Idempotent.
 * Runs in the caller's transaction. Requires `SqlClient`, `Ids`; fails with `SqlError`.
 */
export const ensureBuiltinTools = (agentId: string, at: Date) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    for (const tool of BuiltinTools) {
      const id = yield* ids.next
      yield* sql`INSERT INTO runtime_tools (id, agent_id, stable_name, version, description, input_schema, output_schema,
            risk_class, executor_kind, execution_class, source_kind, source_reference, implementation_version, available,
            unavailable_at, state, grant_state, definition_digest, remote_definition, created_at)
          SELECT ${id}, ${agentId}, ${tool.stableName}, 1, ${tool.description}, ${JSON.stringify(tool.inputSchema)}::jsonb,
            NULL, ${tool.riskClass ?? "LOW"}, 'BUILTIN', ${tool.executionClass ?? "READ"}, 'BUILTIN', NULL, '1', true, NULL, 'ACTIVE', NULL, ${toolDigest(tool)}, NULL, ${at}
          WHERE NOT EXISTS (SELECT 1 FROM runtime_tools WHERE agent_id = ${agentId} AND stable_name = ${tool.stableName})`
    }
  })

/** What a tool answered: its JSON `result`, whether it is an error, and our error code when we refused or failed it. */
export interface ToolOutcome {
  readonly result: unknown
  readonly isError: boolean
  readonly errorCode: string | null
}

/**
 * Runs built-in tool `stableName` with (validated) `args` for `context` (the run's agent, the
 * account that approved the call). An unknown built-in is a tool error `UNKNOWN_TOOL`.
 * Requires `Agents`, `Bounties`, `SqlClient`.
 */
export const runBuiltinTool = (
  stableName: string,
  args: Record<string, unknown>,
  context: WorkToolContext
): Effect.Effect<ToolOutcome, never, Agents | Bounties | SqlClient.SqlClient> =>
  Effect.gen(function*() {
    if (WorkTools.some((t) => t.stableName === stableName)) return yield* runWorkTool(stableName, args, context)
    const agents = yield* Agents
    if (stableName === SearchAgentsTool.stableName) {
      const page = yield* agents.list({
        networks: [],
        protocols: [],
        verificationStates: [],
        // no sort: the list's default, relevance with `q` and rank without
        ...(typeof args["q"] === "string" ? { q: args["q"] } : {}),
        limit: typeof args["limit"] === "number" ? args["limit"] : 5
      }, "runtime-tool").pipe(Effect.orDie)
      // the wire shapes (JSON: decimal strings for amounts), as Agents_ListAgents answers them
      const encoded = yield* Schema.encode(Schema.Array(AgentListItem))(page.rows).pipe(Effect.orDie)
      return { result: { agents: encoded }, isError: false, errorCode: null }
    }
    if (stableName === GetAgentTool.stableName) {
      return yield* agents.profile(String(args["entityId"])).pipe(
        Effect.flatMap((profile) => Effect.orDie(Schema.encode(AgentProfile)(profile))),
        Effect.map((profile): ToolOutcome => ({ result: profile, isError: false, errorCode: null })),
        Effect.catchTag("AgentNotFound", () =>
          Effect.succeed<ToolOutcome>({ result: { error: "No agent has this entity UUID." }, isError: true, errorCode: "TOOL_ERROR" }))
      )
    }
    return { result: { error: `No built-in tool ${stableName}.` }, isError: true, errorCode: "UNKNOWN_TOOL" }
  }).pipe(Effect.withSpan("runBuiltinTool"))
