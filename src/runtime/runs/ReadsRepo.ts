/**
 * SQL of the full run (Runtime_GetRun): the run of `runs`, its steps
 * of `run_steps` and its tool calls of `run_tool_calls` (migration 0021), in the wire
 * shapes of `RunDetail`, `RunStep` and `ToolCall` (src/runtime/runs/Schemas.ts).
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { RunDetail } from "./Schemas.js"

/** The full run, with who may see it (the author of its conversation; null for a run without one). */
const RunRow = Schema.Struct({ ...RunDetail.fields, authorAccountId: Schema.NullOr(Schema.String) })

const stepJson = `json_build_object('ordinal', s.ordinal, 'state', s.state, 'finishReason', s.finish_reason,
  'inputTokens', s.input_tokens::text, 'outputTokens', s.output_tokens::text, 'startedAt', api_ts(s.started_at),
  'completedAt', api_ts(s.completed_at))`

const toolCallJson = `json_build_object('id', t.id, 'stepOrdinal', t.step_ordinal, 'stableName', t.stable_name,
  'toolId', t.tool_id, 'arguments', t.arguments, 'state', t.state, 'approvalState', t.approval_state,
  'decidedAt', api_ts(t.decided_at), 'result', t.result, 'isError', t.is_error, 'errorCode', t.error_code,
  'createdAt', api_ts(t.created_at), 'startedAt', api_ts(t.started_at), 'completedAt', api_ts(t.completed_at))`

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /**
   * The full run and the author of its conversation, or none. One statement, so one
   * snapshot: a run that moves on meanwhile is never shown half old, half new. Steps by
   * ordinal; tool calls by step, then creation, then id.
   */
  const detail = SqlSchema.findOne({
    Request: Schema.String,
    Result: RunRow,
    execute: (id) =>
      sql`SELECT r.id, r.conversation_id AS "conversationId", r.agent_id AS "entityPublicId",
            r.trigger_type AS "triggerType", r.schedule_id AS "scheduleId", r.state, r.version::float8 AS version,
            r.failure_code AS "failureCode", r.provider, r.model,
            COALESCE((SELECT json_agg(${sql.literal(stepJson)} ORDER BY s.ordinal)
                      FROM run_steps s WHERE s.run_id = r.id), '[]'::json) AS steps,
            COALESCE((SELECT json_agg(${sql.literal(toolCallJson)} ORDER BY t.step_ordinal, t.created_at, t.id)
                      FROM run_tool_calls t WHERE t.run_id = r.id), '[]'::json) AS "toolCalls",
            json_build_object('inputTokens', r.input_tokens::text, 'outputTokens', r.output_tokens::text,
              'costMicroUsd', r.cost_micro_usd::text) AS usage,
            api_ts(r.created_at) AS "createdAt", api_ts(r.started_at) AS "startedAt",
            api_ts(r.completed_at) AS "completedAt", api_ts(r.deadline_at) AS "deadlineAt",
            api_ts(r.cancel_requested_at) AS "cancelRequestedAt", c.account_id AS "authorAccountId"
          FROM runs r LEFT JOIN conversations c ON c.id = r.conversation_id
          WHERE r.id = ${id}`
  })

  return {
    detail: (id: string) =>
      Effect.map(detail(id), Option.map(({ authorAccountId, ...run }) => ({ authorAccountId, run: run satisfies RunDetail })))
  } as const
})

/** SQL of the full run. Requires `SqlClient`. */
export class RunReadsRepo extends Effect.Service<RunReadsRepo>()("agent-directory/RunReadsRepo", { effect: make }) {}
