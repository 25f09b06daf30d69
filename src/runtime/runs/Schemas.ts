/**
 * The full run (`GET /api/v1/runs/{runId}`, `Runtime_GetRun`) and its parts:
 * steps (one model call each), tool calls with their approval, usage and cost. Stored in
 * `runs`, `run_steps` and `run_tool_calls` (migration 0021).
 */
import { Schema } from "effect"
import { AnyJson, CountString, DateTimeZ, Uuid } from "../../../schema/common.js"
import { ApprovalState, ToolCallState } from "../events/Schemas.js"
import { Run } from "../Schemas.js"

/** One tool call of a run: what the model asked, whether a person approved it, what the tool answered. */
export const ToolCall = Schema.Struct({
  id: Uuid.annotations({ description: "the `toolCallId` of Runtime_DecideToolApproval" }),
  stepOrdinal: Schema.Int,
  stableName: Schema.String,
  toolId: Schema.NullOr(Uuid),
  arguments: AnyJson,
  state: ToolCallState,
  approvalState: ApprovalState,
  decidedAt: Schema.NullOr(DateTimeZ),
  result: Schema.NullOr(AnyJson),
  isError: Schema.NullOr(Schema.Boolean),
  errorCode: Schema.NullOr(Schema.String),
  createdAt: DateTimeZ,
  startedAt: Schema.NullOr(DateTimeZ),
  completedAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "ToolCall" })
export type ToolCall = typeof ToolCall.Type

/** One model call of a run. */
export const RunStep = Schema.Struct({
  ordinal: Schema.Int,
  state: Schema.Literal("RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"),
  finishReason: Schema.NullOr(Schema.String),
  inputTokens: CountString,
  outputTokens: CountString,
  startedAt: DateTimeZ,
  completedAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "RunStep" })
export type RunStep = typeof RunStep.Type

/** A run's token usage and cost (micro-USD, decimal string; null when the model has no price configured). */
export const RunUsage = Schema.Struct({
  inputTokens: CountString,
  outputTokens: CountString,
  costMicroUsd: Schema.NullOr(CountString)
}).annotations({ identifier: "RunUsage" })
export type RunUsage = typeof RunUsage.Type

/** The full run: the spec's Run fields (§2.20) and what happened in it. */
export const RunDetail = Schema.Struct({
  ...Run.fields,
  scheduleId: Schema.NullOr(Uuid),
  provider: Schema.NullOr(Schema.String),
  model: Schema.NullOr(Schema.String),
  steps: Schema.Array(RunStep),
  toolCalls: Schema.Array(ToolCall),
  usage: RunUsage,
  createdAt: DateTimeZ,
  startedAt: Schema.NullOr(DateTimeZ),
  completedAt: Schema.NullOr(DateTimeZ),
  deadlineAt: Schema.NullOr(DateTimeZ),
  cancelRequestedAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "RunDetail" })
export type RunDetail = typeof RunDetail.Type
