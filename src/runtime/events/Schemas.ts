/**
 * The events of a run: what `GET /api/v1/runs/{runId}/events` streams as
 * Server-Sent Events (`id:` the run's event `seq`, `event:` the `kind`, `data:` the JSON
 * of `data`). Stored in `run_events` by `src/runtime/events/RunEventLog.ts` in the transaction
 * that made the change, so what a follower sees is what was committed, in order.
 *
 * - `run.state`: the run moved to `state` (QUEUED, RUNNING, APPROVAL_REQUIRED, SUCCEEDED,
 *   FAILED, CANCELLED, TIMED_OUT, …), with its new `version` and `failureCode`. A run's
 *   stream ends after the event of a finished state.
 * - `message.delta`: `delta` text was appended to the assistant message `messageId`.
 * - `message.completed`: the message `messageId` ended in `state` (COMPLETE, FAILED,
 *   CANCELLED).
 * - `tool_call`: the tool call `toolCallId` (of tool `stableName`) is now in `state`,
 *   with its `approvalState`.
 * - `usage`: the run's token usage so far and its cost (micro-USD as a decimal string,
 *   null when the model has no price).
 */
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { MessageState, RunState } from "../Schemas.js"

/** Tool call states. */
export const ToolCallState = Schema.Literal(
  "PENDING", "APPROVAL_REQUIRED", "RUNNING", "SUCCEEDED", "FAILED", "DENIED", "CANCELLED"
).annotations({ identifier: "ToolCallState" })
export type ToolCallState = typeof ToolCallState.Type

/** Approval states of a tool call. */
export const ApprovalState = Schema.Literal("NOT_REQUIRED", "PENDING", "APPROVED", "DENIED")
  .annotations({ identifier: "ApprovalState" })
export type ApprovalState = typeof ApprovalState.Type

export const RunStateEvent = Schema.Struct({
  kind: Schema.Literal("run.state"),
  data: Schema.Struct({ runId: Uuid, state: RunState, version: Schema.Number, failureCode: Schema.NullOr(Schema.String) })
}).annotations({ identifier: "RunStateEvent" })

export const MessageDeltaEvent = Schema.Struct({
  kind: Schema.Literal("message.delta"),
  data: Schema.Struct({ messageId: Uuid, delta: Schema.String })
}).annotations({ identifier: "MessageDeltaEvent" })

export const MessageCompletedEvent = Schema.Struct({
  kind: Schema.Literal("message.completed"),
  data: Schema.Struct({ messageId: Uuid, state: MessageState })
}).annotations({ identifier: "MessageCompletedEvent" })

export const ToolCallEvent = Schema.Struct({
  kind: Schema.Literal("tool_call"),
  data: Schema.Struct({ toolCallId: Uuid, stableName: Schema.String, state: ToolCallState, approvalState: ApprovalState })
}).annotations({ identifier: "ToolCallEvent" })

export const UsageEvent = Schema.Struct({
  kind: Schema.Literal("usage"),
  data: Schema.Struct({
    inputTokens: Schema.Number,
    outputTokens: Schema.Number,
    costMicroUsd: Schema.NullOr(Schema.String)
  })
}).annotations({ identifier: "UsageEvent" })

/** One event of a run, as stored and as streamed. */
export const RunEvent = Schema.Union(RunStateEvent, MessageDeltaEvent, MessageCompletedEvent, ToolCallEvent, UsageEvent)
  .annotations({ identifier: "RunEvent" })
export type RunEvent = typeof RunEvent.Type
