/**
 * The run-control operations of the Runtime group: Runtime_DecideToolApproval
 * and Runtime_CancelRun, added to `RuntimeApi`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { InvalidState, RoleRequired, VersionConflict } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { CancelRunRequest, DecideToolApprovalRequest, ToolApprovalResult } from "./Schemas.js"
import { Run } from "../Schemas.js"
import { operation } from "../../api/operation.js"
import { conversationVisibility } from "../conversations/Api.js"
import { ApprovalNotPending, RunNotFound, ToolCallNotFound } from "../Errors.js"

const RunPath = Schema.Struct({ runId: Uuid })

/** Who may act on a run: who may read it (Runtime_GetRun), with a role that may control runs. */
const visibility = "Only who may read the run (Runtime_GetRun) may do this: " + conversationVisibility + " A run " +
  "without a conversation (a scheduled run) is visible to every ACTIVE member of the workspace operating its agent. " +
  "A run that is absent, of an agent not operated by a workspace the caller is an ACTIVE member of, or of a " +
  "conversation the caller does not see is 404 `run-not-found` (its existence is not revealed) and nothing changes. " +
  "Of those who see it, only the OWNER, ADMIN, EDITOR and OPERATOR roles may do this (403 `role-required`)."

/** POST /api/v1/runs/{runId}/approvals. */
export const decideToolApproval = HttpApiEndpoint.post("decideToolApproval", "/api/v1/runs/:runId/approvals")
  .setPath(RunPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(DecideToolApprovalRequest)
  .addSuccess(Data(ToolApprovalResult))
  .pipe(
    operation({
      id: "Runtime_DecideToolApproval",
      permission: "runtime.control",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 500],
      summary: "Approve or deny a tool call that waits for a person",
      description: "A tool call whose tool's grant is APPROVAL_REQUIRED or whose `riskClass` is HIGH waits for a " +
        "person before it runs: its `approvalState` is PENDING and, while the run waits for it, the run is " +
        "APPROVAL_REQUIRED. `decision` APPROVE records the approval (`approvalState` APPROVED) and the call runs; DENY " +
        "ends the call DENIED (`approvalState` DENIED, `errorCode` DENIED) without running it, and the model is told " +
        "that a person denied it. Either way the run's `version` grows by one and a run waiting for this call is " +
        "RUNNING again; `decidedAt` is now. Answers the run and the tool call. `expectedVersion` is the run's " +
        "`version` as last read: another one is 409 `version-conflict`. " + visibility + " A `toolCallId` that is not " +
        "a call of this run is 404 `tool-call-not-found`; a call that awaits no decision (decided already, not " +
        "needing approval, ended, or its run is over) is 409 `approval-not-pending`. A wait for a decision ends when " +
        "the run reaches its deadline (`RUN_TIMEOUT_SECONDS` after it started: the run ends TIMED_OUT) or is cancelled.",
      errors: [RunNotFound, RoleRequired, ToolCallNotFound, VersionConflict, ApprovalNotPending]
    })
  )

/** POST /api/v1/runs/{runId}/cancel. */
export const cancelRun = HttpApiEndpoint.post("cancelRun", "/api/v1/runs/:runId/cancel")
  .setPath(RunPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(CancelRunRequest)
  .addSuccess(Data(Run))
  .pipe(
    operation({
      id: "Runtime_CancelRun",
      permission: "runtime.control",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 500],
      summary: "Cancel an active run",
      description: "Cancels an active run (QUEUED, RUNNING, APPROVAL_REQUIRED, …) at once: the run is CANCELLED " +
        "(`version` + 1), its answer message CANCELLED (the text written so far stays), its unfinished tool calls " +
        "CANCELLED, and its conversation is free for the next message. The run's work stops at its next boundary " +
        "(a model step streaming stops writing; a tool call already running finishes but its result is not used; " +
        "a wait for an approval ends). Answers the run. `expectedVersion` is the run's `version` as last read: " +
        "another one is 409 `version-conflict`. " + visibility + " A run that is already over (SUCCEEDED, FAILED, " +
        "CANCELLED or TIMED_OUT) is 409 `invalid-state`.",
      errors: [RunNotFound, RoleRequired, VersionConflict, InvalidState]
    })
  )
