/** SQL of the Runtime area: an agent's runtime tools in the wire shape of `RuntimeTool` (spec §2.15). */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { RuntimeTool } from "./Schemas.js"

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The agent's tools, by stable name then version. */
  const tools = SqlSchema.findAll({
    Request: Schema.String,
    Result: RuntimeTool,
    execute: (agentId) =>
      sql`SELECT t.id, t.stable_name AS "stableName", t.version, t.description, t.input_schema AS "inputSchema",
            t.output_schema AS "outputSchema", t.risk_class AS "riskClass", t.executor_kind AS "executorKind",
            t.execution_class AS "executionClass", t.source_kind AS "sourceKind", t.source_reference AS "sourceReference",
            t.implementation_version AS "implementationVersion", t.available, api_ts(t.unavailable_at) AS "unavailableAt",
            t.state, t.grant_state AS "grantState", t.definition_digest AS "definitionDigest",
            t.remote_definition AS "remoteDefinition", api_ts(t.created_at) AS "createdAt"
          FROM runtime_tools t WHERE t.agent_id = ${agentId}
          ORDER BY t.stable_name, t.version, t.id`
  })

  return { tools } as const
})

/** SQL of the Runtime area. */
export class RuntimeRepo extends Effect.Service<RuntimeRepo>()("agent-directory/RuntimeRepo", { effect: make }) {}
