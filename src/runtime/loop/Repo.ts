/**
 * SQL of a run as it runs (migration 0021): the moves of the `AgentRun`
 * workflow (`./AgentRunWorkflow.ts`) and of the run-control commands
 * (`../control/RunControl.ts`): the run's state, its steps, its tool calls with their approvals,
 * its usage, and its answer message's text and `contentParts`. Every change appends its
 * event (`../events/RunEventLog.ts`) in the same transaction; every function here runs inside the
 * caller's transaction.
 *
 * The answer's `contentParts`, in order: per step a `{type:"text",text}` part (when the
 * model wrote text), a `{type:"tool_call",toolCallId,stableName,arguments}` part per tool
 * call it asked for, and a `{type:"tool_result",toolCallId,result,isError}` part per tool
 * call once it ended (a denied, refused, failed or cancelled call included).
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import type { ApprovalState, RunEvent, ToolCallState } from "../events/Schemas.js"
import { ToolCall } from "../runs/Schemas.js"
import { FinishedRunStates, Run, RunState } from "../Schemas.js"
import { appendRunEvent } from "../events/RunEventLog.js"
import { resolveApprovedChanges } from "../../mcp/index.js"
import { markAgentEvidence } from "../../trust/index.js"

const finished = `(${FinishedRunStates.map((s) => `'${s}'`).join(", ")})`
const runColumns = `id, conversation_id AS "conversationId", agent_id AS "entityPublicId", trigger_type AS "triggerType",
  state, version::float8 AS version, failure_code AS "failureCode"`
const toolCallColumns = `id, step_ordinal AS "stepOrdinal", stable_name AS "stableName", tool_id AS "toolId", arguments,
  state, approval_state AS "approvalState", api_ts(decided_at) AS "decidedAt", result, is_error AS "isError",
  error_code AS "errorCode", api_ts(created_at) AS "createdAt", api_ts(started_at) AS "startedAt",
  api_ts(completed_at) AS "completedAt"`

/** Tool call states in which a call is over. */
export const FinishedToolCallStates = ["SUCCEEDED", "FAILED", "DENIED", "CANCELLED"] as const
const callFinished = `(${FinishedToolCallStates.map((s) => `'${s}'`).join(", ")})`

/** What the run loop needs of a run: its agent's configuration and its answer message. */
export const RunWork = Schema.Struct({
  agentId: Schema.String,
  conversationId: Schema.String,
  provider: Schema.String,
  model: Schema.String,
  instructions: Schema.String,
  temperature: Schema.NullOr(Schema.Number),
  maxOutputTokens: Schema.NullOr(Schema.Number),
  answerId: Schema.String,
  answerOrdinal: Schema.Number,
  /** The run's deadline (epoch ms). */
  deadlineAt: Schema.Number
})
export type RunWork = typeof RunWork.Type

const RunWorkRow = Schema.Struct({
  state: RunState,
  agentId: Schema.String,
  conversationId: Schema.NullOr(Schema.String),
  provider: Schema.NullOr(Schema.String),
  model: Schema.NullOr(Schema.String),
  instructions: Schema.NullOr(Schema.String),
  temperature: Schema.NullOr(Schema.Number),
  maxOutputTokens: Schema.NullOr(Schema.Number),
  answerId: Schema.NullOr(Schema.String),
  answerOrdinal: Schema.NullOr(Schema.Number),
  deadlineAt: Schema.NullOr(Schema.Number)
})

/** A run's state as a step sees it (row locked). */
const RunStatusRow = Schema.Struct({
  state: RunState,
  version: Schema.Number,
  agentId: Schema.String,
  deadlineAt: Schema.NullOr(Schema.Number)
})

/** A run as run control checks it (`lockForControl`). */
const ControlledRunRow = Schema.Struct({
  state: RunState,
  version: Schema.Number,
  agentId: Schema.String,
  /** The author of the run's conversation (null for a run without one). */
  authorAccountId: Schema.NullOr(Schema.String)
})

/** A runtime tool the model may be offered (latest available ACTIVE version) with its grant. */
export const OfferedTool = Schema.Struct({
  id: Schema.String,
  stableName: Schema.String,
  description: Schema.String,
  inputSchema: Schema.Unknown,
  riskClass: Schema.String,
  executorKind: Schema.String,
  executionClass: Schema.String,
  sourceReference: Schema.NullOr(Schema.String),
  remoteName: Schema.NullOr(Schema.String),
  grant: Schema.Literal("GRANTED", "APPROVAL_REQUIRED"),
  /**
   * True when this definition is not the one a person approved (`runtime_tool_approvals`,
   * else the tool's first version): its calls wait for a person's approval.
   */
  definitionChanged: Schema.Boolean
})
export type OfferedTool = typeof OfferedTool.Type

/** One tool call of a run as the loop sees it. */
export const CallRow = Schema.Struct({
  id: Schema.String,
  stepOrdinal: Schema.Number,
  providerCallId: Schema.String,
  toolId: Schema.NullOr(Schema.String),
  stableName: Schema.String,
  arguments: Schema.Unknown,
  state: Schema.String,
  approvalState: Schema.String,
  result: Schema.Unknown,
  isError: Schema.NullOr(Schema.Boolean),
  executorKind: Schema.NullOr(Schema.String),
  executionClass: Schema.NullOr(Schema.String),
  sourceReference: Schema.NullOr(Schema.String),
  remoteName: Schema.NullOr(Schema.String),
  runState: RunState,
  /** The run's agent (its entity id). */
  agentId: Schema.String,
  /** The account that approved the call, when one did. */
  decidedBy: Schema.NullOr(Schema.String)
})
export type CallRow = typeof CallRow.Type

const Turn = Schema.Struct({ role: Schema.String, content: Schema.String })

/** A message part as stored in `contentParts`. */
export type ContentPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "tool_call"; readonly toolCallId: string; readonly stableName: string; readonly arguments: unknown }
  | { readonly type: "tool_result"; readonly toolCallId: string; readonly result: unknown; readonly isError: boolean }

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const event = (runId: string, e: RunEvent, at: Date) => appendRunEvent(runId, e, at)

  /** The run with its agent's runtime configuration and its answer, row locked. */
  const lockWork = SqlSchema.findOne({
    Request: Schema.String,
    Result: RunWorkRow,
    execute: (id) =>
      sql`SELECT r.state, r.agent_id AS "agentId", r.conversation_id AS "conversationId", c.provider, c.model,
            c.instructions, c.temperature, c.max_output_tokens AS "maxOutputTokens",
            m.id AS "answerId", m.ordinal::float8 AS "answerOrdinal",
            (extract(epoch FROM r.deadline_at) * 1000)::float8 AS "deadlineAt"
          FROM runs r
          LEFT JOIN agent_runtime_configs c ON c.agent_id = r.agent_id
          LEFT JOIN messages m ON m.run_id = r.id AND m.role = 'assistant'
          WHERE r.id = ${id}
          FOR UPDATE OF r`
  })

  /** The run's state, version and deadline, row locked. */
  const lockStatus = SqlSchema.findOne({
    Request: Schema.String,
    Result: RunStatusRow,
    execute: (id) =>
      sql`SELECT state, version::float8 AS version, agent_id AS "agentId",
            (extract(epoch FROM deadline_at) * 1000)::float8 AS "deadlineAt"
          FROM runs WHERE id = ${id} FOR UPDATE`
  })

  /**
   * The run's state, version and agent with the author of its conversation (null for a
   * run without one), its row locked: what Runtime_CancelRun and
   * Runtime_DecideToolApproval check before they change it.
   */
  const lockForControl = SqlSchema.findOne({
    Request: Schema.String,
    Result: ControlledRunRow,
    execute: (id) =>
      sql`SELECT r.state, r.version::float8 AS version, r.agent_id AS "agentId",
            (SELECT c.account_id FROM conversations c WHERE c.id = r.conversation_id) AS "authorAccountId"
          FROM runs r WHERE r.id = ${id} FOR UPDATE OF r`
  })

  const stateEvent = (runId: string, row: { state: RunState; version: number; failureCode: string | null }, at: Date) =>
    event(runId, { kind: "run.state", data: { runId, state: row.state, version: row.version, failureCode: row.failureCode } }, at)

  /** Moves an active run to `to` (version + 1) when its state is one of `from`; appends the event. */
  const move = (runId: string, from: ReadonlyArray<RunState>, to: RunState, at: Date, extra: { failureCode?: string } = {}) =>
    Effect.gen(function*() {
      const rows = yield* sql<{ state: RunState; version: number; failureCode: string | null; agentId: string }>`
        UPDATE runs SET state = ${to}, version = version + 1, updated_at = ${at},
          failure_code = COALESCE(${extra.failureCode ?? null}, failure_code),
          completed_at = CASE WHEN ${to} IN ${sql.literal(finished)} THEN ${at}::timestamptz ELSE completed_at END
        WHERE id = ${runId} AND state IN ${sql.in(from)}
        RETURNING state, version::float8 AS version, failure_code AS "failureCode", agent_id AS "agentId"`
      if (rows.length === 0) return Option.none<Run["state"]>()
      // a finished run is performance evidence of its agent: mark it for the projector
      if ((FinishedRunStates as ReadonlyArray<string>).includes(to)) {
        yield* Effect.provideService(markAgentEvidence(rows[0]!.agentId, at), SqlClient.SqlClient, sql)
      }
      yield* stateEvent(runId, rows[0]!, at)
      return Option.some(rows[0]!.state)
    })

  /**
   * The `start` move: QUEUED → RUNNING with `provider`, `model`, `startedAt` and
   * `deadlineAt` (= `at` + `timeoutSeconds`, kept when already set), the answer
   * PENDING → STREAMING. A run already RUNNING (a start run again) keeps everything.
   */
  const start = (runId: string, work: { provider: string; model: string }, at: Date, timeoutSeconds: number) =>
    Effect.gen(function*() {
      const deadline = new Date(at.getTime() + timeoutSeconds * 1000)
      const rows = yield* sql<{ state: RunState; version: number; failureCode: string | null }>`
        UPDATE runs SET state = 'RUNNING', version = version + 1, started_at = ${at}, updated_at = ${at},
          provider = ${work.provider}, model = ${work.model}, deadline_at = COALESCE(deadline_at, ${deadline})
        WHERE id = ${runId} AND state = 'QUEUED'
        RETURNING state, version::float8 AS version, failure_code AS "failureCode"`
      if (rows.length > 0) yield* stateEvent(runId, rows[0]!, at)
      yield* sql`UPDATE messages SET state = 'STREAMING', content_text = COALESCE(content_text, '')
                 WHERE run_id = ${runId} AND role = 'assistant' AND state = 'PENDING'`
      const [row] = yield* sql<{ deadlineAt: number }>`
        SELECT (extract(epoch FROM deadline_at) * 1000)::float8 AS "deadlineAt" FROM runs WHERE id = ${runId}`
      return row!.deadlineAt
    })

  /**
   * Ends an active run in `state` (SUCCEEDED only from RUNNING), with `failureCode`; its
   * unfinished answer becomes `messageState` (`message.completed`), its unfinished steps
   * and tool calls CANCELLED (`tool_call` events). False when the run was not active.
   */
  const finish = (r: {
    readonly runId: string
    readonly state: "SUCCEEDED" | "FAILED" | "CANCELLED" | "TIMED_OUT"
    readonly failureCode: string | null
    readonly messageState: "COMPLETE" | "FAILED" | "CANCELLED"
    readonly at: Date
    readonly cancelRequested?: boolean
  }) =>
    Effect.gen(function*() {
      const from: ReadonlyArray<RunState> = r.state === "SUCCEEDED"
        ? ["RUNNING"]
        : ["CREATED", "QUEUED", "PREPARING", "RUNNING", "INPUT_REQUIRED", "APPROVAL_REQUIRED", "SETTLING"]
      const moved = yield* move(r.runId, from, r.state, r.at, r.failureCode === null ? {} : { failureCode: r.failureCode })
      if (Option.isNone(moved)) return false
      if (r.cancelRequested === true) yield* sql`UPDATE runs SET cancel_requested_at = ${r.at} WHERE id = ${r.runId}`
      const calls = yield* sql<{ id: string; stableName: string; approvalState: ApprovalState }>`
        UPDATE run_tool_calls SET state = 'CANCELLED', completed_at = ${r.at}, is_error = true,
          result = '{"error":"The run ended before this tool call finished."}'::jsonb
        WHERE run_id = ${r.runId} AND state NOT IN ${sql.literal(callFinished)}
        RETURNING id, stable_name AS "stableName", approval_state AS "approvalState"`
      for (const c of calls) {
        yield* event(r.runId, {
          kind: "tool_call",
          data: { toolCallId: c.id, stableName: c.stableName, state: "CANCELLED", approvalState: c.approvalState }
        }, r.at)
      }
      yield* sql`UPDATE run_steps SET state = 'CANCELLED', completed_at = ${r.at} WHERE run_id = ${r.runId} AND state = 'RUNNING'`
      const messages = yield* sql<{ id: string }>`
        UPDATE messages SET state = ${r.messageState}, completed_at = ${r.at}
        WHERE run_id = ${r.runId} AND role = 'assistant' AND state IN ('PENDING', 'STREAMING') RETURNING id`
      for (const m of messages) {
        yield* event(r.runId, { kind: "message.completed", data: { messageId: m.id, state: r.messageState } }, r.at)
      }
      return true
    })

  /** The conversation's readable messages before `ordinal`, oldest first. */
  const history = SqlSchema.findAll({
    Request: Schema.Struct({ conversationId: Schema.String, before: Schema.Number }),
    Result: Turn,
    execute: (r) =>
      sql`SELECT role, content_text AS content FROM messages
          WHERE conversation_id = ${r.conversationId} AND ordinal < ${r.before}
            AND state = 'COMPLETE' AND content_text IS NOT NULL
          ORDER BY ordinal`
  })

  /** The answer's parts so far. */
  const answerParts = (messageId: string) =>
    sql<{ parts: ReadonlyArray<ContentPart> }>`SELECT content_parts AS parts FROM messages WHERE id = ${messageId}`.pipe(
      Effect.map((rows) => rows[0]?.parts ?? [])
    )

  /** The run's tool calls with their tool's execution facts, in order. */
  const calls = SqlSchema.findAll({
    Request: Schema.String,
    Result: CallRow,
    execute: (runId) =>
      sql`SELECT c.id, c.step_ordinal AS "stepOrdinal", c.provider_call_id AS "providerCallId", c.tool_id AS "toolId",
            c.stable_name AS "stableName", c.arguments, c.state, c.approval_state AS "approvalState", c.result,
            c.is_error AS "isError", t.executor_kind AS "executorKind", t.execution_class AS "executionClass",
            t.source_reference AS "sourceReference", t.remote_definition->>'name' AS "remoteName", r.state AS "runState",
            r.agent_id AS "agentId", c.decided_by AS "decidedBy"
          FROM run_tool_calls c
          JOIN runs r ON r.id = c.run_id
          LEFT JOIN runtime_tools t ON t.id = c.tool_id
          WHERE c.run_id = ${runId}
          ORDER BY c.step_ordinal, c.created_at, c.id`
  })

  /** Agent `agentId`'s granted, available ACTIVE tools (latest version of each), by stable name. */
  const offeredTools = SqlSchema.findAll({
    Request: Schema.String,
    Result: OfferedTool,
    execute: (agentId) =>
      sql`SELECT DISTINCT ON (t.stable_name) t.id, t.stable_name AS "stableName", t.description,
            t.input_schema AS "inputSchema", t.risk_class AS "riskClass", t.executor_kind AS "executorKind",
            t.execution_class AS "executionClass", t.source_reference AS "sourceReference",
            t.remote_definition->>'name' AS "remoteName", c.tool_grants->>t.stable_name AS "grant",
            t.definition_digest IS DISTINCT FROM COALESCE(
              (SELECT a.definition_digest FROM runtime_tool_approvals a WHERE a.agent_id = t.agent_id AND a.stable_name = t.stable_name),
              (SELECT f.definition_digest FROM runtime_tools f WHERE f.agent_id = t.agent_id AND f.stable_name = t.stable_name
                 ORDER BY f.version LIMIT 1)) AS "definitionChanged"
          FROM runtime_tools t
          JOIN agent_runtime_configs c ON c.agent_id = t.agent_id
          WHERE t.agent_id = ${agentId} AND t.available AND t.state = 'ACTIVE'
            AND c.tool_grants->>t.stable_name IN ('GRANTED', 'APPROVAL_REQUIRED')
          ORDER BY t.stable_name, t.version DESC`
  })

  /**
   * Step `ordinal` of the run begins (again): its row RUNNING, and the answer's text
   * rewound to the text of the steps that ended (a retried attempt rewrites, never
   * appends twice).
   */
  const beginStep = (runId: string, messageId: string, ordinal: number, at: Date) =>
    Effect.gen(function*() {
      yield* sql`INSERT INTO run_steps (run_id, ordinal, state, started_at) VALUES (${runId}, ${ordinal}, 'RUNNING', ${at})
                 ON CONFLICT (run_id, ordinal) DO UPDATE SET state = 'RUNNING', started_at = ${at}, completed_at = NULL`
      yield* sql`UPDATE messages SET content_text = COALESCE((
                   SELECT string_agg(p->>'text', '' ORDER BY n) FROM jsonb_array_elements(content_parts) WITH ORDINALITY AS e(p, n)
                   WHERE p->>'type' = 'text'), '')
                 WHERE id = ${messageId} AND state = 'STREAMING'`
    })

  /** Appends `delta` to the streaming answer (`message.delta`); false when it no longer streams. */
  const appendText = (runId: string, messageId: string, delta: string, at: Date) =>
    Effect.gen(function*() {
      const rows = yield* sql`UPDATE messages SET content_text = content_text || ${delta}
                              WHERE id = ${messageId} AND state = 'STREAMING' RETURNING id`
      if (rows.length === 0) return false
      yield* event(runId, { kind: "message.delta", data: { messageId, delta } }, at)
      return true
    })

  /** Appends `parts` to the answer's `contentParts`. */
  const appendParts = (messageId: string, parts: ReadonlyArray<ContentPart>) =>
    parts.length === 0
      ? Effect.void
      : sql`UPDATE messages SET content_parts = content_parts || ${JSON.stringify(parts)}::jsonb WHERE id = ${messageId}`.pipe(
        Effect.asVoid
      )

  /**
   * Step `ordinal` ended with `finishReason` and its usage: the step SUCCEEDED, the run's
   * usage and cost grow (`usage` event), the step's text becomes a part of the answer.
   */
  const endStep = (r: {
    readonly runId: string
    readonly messageId: string
    readonly ordinal: number
    readonly text: string
    readonly finishReason: string
    readonly inputTokens: number
    readonly outputTokens: number
    readonly costMicroUsd: bigint | null
    readonly at: Date
  }) =>
    Effect.gen(function*() {
      yield* sql`UPDATE run_steps SET state = 'SUCCEEDED', finish_reason = ${r.finishReason}, input_tokens = ${r.inputTokens},
                   output_tokens = ${r.outputTokens}, completed_at = ${r.at}
                 WHERE run_id = ${r.runId} AND ordinal = ${r.ordinal}`
      const [usage] = yield* sql<{ inputTokens: string; outputTokens: string; cost: string | null }>`
        UPDATE runs SET input_tokens = input_tokens + ${r.inputTokens}, output_tokens = output_tokens + ${r.outputTokens},
          cost_micro_usd = CASE WHEN ${r.costMicroUsd === null ? null : r.costMicroUsd.toString()}::bigint IS NULL
            THEN cost_micro_usd ELSE COALESCE(cost_micro_usd, 0) + ${r.costMicroUsd === null ? null : r.costMicroUsd.toString()}::bigint END,
          updated_at = ${r.at}
        WHERE id = ${r.runId}
        RETURNING input_tokens::text AS "inputTokens", output_tokens::text AS "outputTokens", cost_micro_usd::text AS cost`
      yield* event(r.runId, {
        kind: "usage",
        data: { inputTokens: Number(usage!.inputTokens), outputTokens: Number(usage!.outputTokens), costMicroUsd: usage!.cost }
      }, r.at)
      if (r.text !== "") yield* appendParts(r.messageId, [{ type: "text", text: r.text }])
    })

  /** Records one tool call the model asked for (its `tool_call` part and event). */
  const insertCall = (c: {
    readonly id: string
    readonly runId: string
    readonly messageId: string
    readonly stepOrdinal: number
    readonly providerCallId: string
    readonly toolId: string | null
    readonly stableName: string
    readonly arguments: unknown
    readonly state: ToolCallState
    readonly approvalState: ApprovalState
    readonly at: Date
  }) =>
    Effect.gen(function*() {
      yield* sql`INSERT INTO run_tool_calls (id, run_id, step_ordinal, provider_call_id, tool_id, stable_name, arguments, state,
                   approval_state, created_at)
                 VALUES (${c.id}, ${c.runId}, ${c.stepOrdinal}, ${c.providerCallId}, ${c.toolId}, ${c.stableName},
                   ${JSON.stringify(c.arguments ?? null)}::jsonb, ${c.state}, ${c.approvalState}, ${c.at})`
      yield* appendParts(c.messageId, [{ type: "tool_call", toolCallId: c.id, stableName: c.stableName, arguments: c.arguments }])
      yield* event(c.runId, {
        kind: "tool_call",
        data: { toolCallId: c.id, stableName: c.stableName, state: c.state, approvalState: c.approvalState }
      }, c.at)
    })

  /** Moves an unfinished tool call to `state` (`tool_call` event); false when it was finished or not in `from`. */
  const moveCall = (runId: string, id: string, from: ReadonlyArray<string>, state: ToolCallState, at: Date) =>
    Effect.gen(function*() {
      const rows = yield* sql<{ stableName: string; approvalState: ApprovalState }>`
        UPDATE run_tool_calls SET state = ${state},
          started_at = CASE WHEN ${state} = 'RUNNING' THEN ${at}::timestamptz ELSE started_at END
        WHERE id = ${id} AND run_id = ${runId} AND state IN ${sql.in(from)}
        RETURNING stable_name AS "stableName", approval_state AS "approvalState"`
      if (rows.length === 0) return false
      yield* event(runId, {
        kind: "tool_call",
        data: { toolCallId: id, stableName: rows[0]!.stableName, state, approvalState: rows[0]!.approvalState }
      }, at)
      return true
    })

  /**
   * An unfinished tool call ends in `state` with its `result` (its `tool_result` part and
   * `tool_call` event); false when it had already ended.
   */
  const endCall = (r: {
    readonly runId: string
    readonly messageId: string
    readonly id: string
    readonly state: "SUCCEEDED" | "FAILED" | "DENIED" | "CANCELLED"
    readonly result: unknown
    readonly isError: boolean
    readonly errorCode: string | null
    readonly at: Date
    readonly decision?: { readonly approvalState: "APPROVED" | "DENIED"; readonly decidedBy: string }
  }) =>
    Effect.gen(function*() {
      const rows = yield* sql<{ stableName: string; approvalState: ApprovalState }>`
        UPDATE run_tool_calls SET state = ${r.state}, result = ${JSON.stringify(r.result ?? null)}::jsonb,
          is_error = ${r.isError}, error_code = ${r.errorCode}, completed_at = ${r.at},
          approval_state = COALESCE(${r.decision?.approvalState ?? null}, approval_state),
          decided_by = COALESCE(${r.decision?.decidedBy ?? null}::uuid, decided_by),
          decided_at = CASE WHEN ${r.decision === undefined} THEN decided_at ELSE ${r.at}::timestamptz END
        WHERE id = ${r.id} AND run_id = ${r.runId} AND state NOT IN ${sql.literal(callFinished)}
        RETURNING stable_name AS "stableName", approval_state AS "approvalState"`
      if (rows.length === 0) return false
      yield* appendParts(r.messageId, [{ type: "tool_result", toolCallId: r.id, result: r.result, isError: r.isError }])
      yield* event(r.runId, {
        kind: "tool_call",
        data: { toolCallId: r.id, stableName: rows[0]!.stableName, state: r.state, approvalState: rows[0]!.approvalState }
      }, r.at)
      return true
    })

  /**
   * Records a person's decision on a call whose approval is PENDING (`tool_call` event), the
   * called definition approved (its TOOL_DEFINITION_CHANGED finding resolved); false when it is not.
   */
  const approveCall = (r: { readonly runId: string; readonly id: string; readonly decidedBy: string; readonly at: Date }) =>
    Effect.gen(function*() {
      const rows = yield* sql<{ stableName: string; state: ToolCallState }>`
        UPDATE run_tool_calls SET approval_state = 'APPROVED', decided_by = ${r.decidedBy}, decided_at = ${r.at}
        WHERE id = ${r.id} AND run_id = ${r.runId} AND approval_state = 'PENDING' AND state NOT IN ${sql.literal(callFinished)}
        RETURNING stable_name AS "stableName", state`
      if (rows.length === 0) return false
      // the person approved this definition of the tool: later calls of it need no approval for a change
      yield* sql`INSERT INTO runtime_tool_approvals (agent_id, stable_name, definition_digest, approved_by, approved_at)
                 SELECT t.agent_id, t.stable_name, t.definition_digest, ${r.decidedBy}, ${r.at}
                 FROM run_tool_calls c JOIN runtime_tools t ON t.id = c.tool_id
                 WHERE c.id = ${r.id} AND c.run_id = ${r.runId} AND t.definition_digest IS NOT NULL
                 ON CONFLICT (agent_id, stable_name) DO UPDATE SET definition_digest = EXCLUDED.definition_digest,
                   approved_by = EXCLUDED.approved_by, approved_at = EXCLUDED.approved_at`
      // its TOOL_DEFINITION_CHANGED finding for this definition is resolved
      const [agent] = yield* sql<{ agentId: string }>`SELECT agent_id AS "agentId" FROM runs WHERE id = ${r.runId}`
      if (agent !== undefined) yield* Effect.provideService(resolveApprovedChanges(agent.agentId, r.at), SqlClient.SqlClient, sql)
      yield* event(r.runId, {
        kind: "tool_call",
        data: { toolCallId: r.id, stableName: rows[0]!.stableName, state: rows[0]!.state, approvalState: "APPROVED" }
      }, r.at)
      return true
    })

  /** The run's answer message id. */
  const answerOf = (runId: string) =>
    sql<{ id: string }>`SELECT id FROM messages WHERE run_id = ${runId} AND role = 'assistant'`.pipe(
      Effect.map((rows) => Option.fromNullable(rows[0]?.id))
    )

  /** One run in its wire shape. */
  const run = SqlSchema.findOne({
    Request: Schema.String,
    Result: Run,
    execute: (id) => sql`SELECT ${sql.literal(runColumns)} FROM runs WHERE id = ${id}`
  })

  /** One tool call of a run in its wire shape. */
  const toolCall = SqlSchema.findOne({
    Request: Schema.Struct({ runId: Schema.String, id: Schema.String }),
    Result: ToolCall,
    execute: (r) => sql`SELECT ${sql.literal(toolCallColumns)} FROM run_tool_calls WHERE id = ${r.id} AND run_id = ${r.runId}`
  })

  /** A tool call's approval and state, its row locked. */
  const lockCall = SqlSchema.findOne({
    Request: Schema.Struct({ runId: Schema.String, id: Schema.String }),
    Result: Schema.Struct({ state: Schema.String, approvalState: Schema.String }),
    execute: (r) =>
      sql`SELECT state, approval_state AS "approvalState" FROM run_tool_calls
          WHERE id = ${r.id} AND run_id = ${r.runId} FOR UPDATE`
  })

  /** The ids of the run's calls still waiting for a decision. */
  const pendingApprovals = (runId: string) =>
    sql<{ id: string }>`SELECT id FROM run_tool_calls WHERE run_id = ${runId} AND approval_state = 'PENDING'`.pipe(
      Effect.map((rows) => rows.map((r) => r.id))
    )

  /** Bumps the run's version (a change to its tool calls that moves no state) and appends its `run.state` event. */
  const touch = (runId: string, at: Date) =>
    Effect.gen(function*() {
      const rows = yield* sql<{ state: RunState; version: number; failureCode: string | null }>`
        UPDATE runs SET version = version + 1, updated_at = ${at} WHERE id = ${runId}
        RETURNING state, version::float8 AS version, failure_code AS "failureCode"`
      yield* stateEvent(runId, rows[0]!, at)
    })

  return {
    lockWork,
    lockStatus,
    lockForControl,
    move,
    start,
    finish,
    history,
    answerParts,
    calls,
    offeredTools,
    beginStep,
    appendText,
    endStep,
    insertCall,
    moveCall,
    endCall,
    approveCall,
    answerOf,
    run,
    toolCall,
    lockCall,
    pendingApprovals,
    touch
  } as const
})

/** SQL of a running run. Requires `SqlClient`. */
export class RunLoopRepo extends Effect.Service<RunLoopRepo>()("agent-directory/RunLoopRepo", { effect: make }) {}
