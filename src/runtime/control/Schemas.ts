/**
 * Bodies and answers of the run-control commands: Runtime_DecideToolApproval
 * (`POST /api/v1/runs/{runId}/approvals`) and Runtime_CancelRun (`POST /api/v1/runs/{runId}/cancel`).
 */
import { Schema } from "effect"
import { rule, StrictStruct, Uuid, Version } from "../../../schema/common.js"
import { ToolCall } from "../runs/Schemas.js"
import { Run } from "../Schemas.js"

/** Body of Runtime_DecideToolApproval: the call, the decision, the run's version as last read. */
export const DecideToolApprovalRequest = StrictStruct({
  toolCallId: Uuid,
  decision: Schema.Literal("APPROVE", "DENY").annotations(rule("must be APPROVE or DENY")),
  expectedVersion: Version
}).annotations({ identifier: "DecideToolApprovalRequest" })
export type DecideToolApprovalRequest = typeof DecideToolApprovalRequest.Type

/** Answer of Runtime_DecideToolApproval: the run and the tool call after the decision. */
export const ToolApprovalResult = Schema.Struct({ run: Run, toolCall: ToolCall }).annotations({ identifier: "ToolApprovalResult" })
export type ToolApprovalResult = typeof ToolApprovalResult.Type

/** Body of Runtime_CancelRun: the run's version as last read. */
export const CancelRunRequest = StrictStruct({ expectedVersion: Version }).annotations({ identifier: "CancelRunRequest" })
export type CancelRunRequest = typeof CancelRunRequest.Type
