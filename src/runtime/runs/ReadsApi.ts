/** The run read of the Runtime group, added to `RuntimeApi`: Runtime_GetRun. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { RunDetail } from "./Schemas.js"
import { operation } from "../../api/operation.js"
import { conversationVisibility } from "../conversations/Api.js"
import { RunNotFound } from "../Errors.js"

/** GET /api/v1/runs/{runId}. */
export const getRun = HttpApiEndpoint.get("getRun", "/api/v1/runs/:runId")
  .setPath(Schema.Struct({ runId: Uuid }))
  .addSuccess(Data(RunDetail))
  .pipe(
    operation({
      id: "Runtime_GetRun",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 500],
      summary: "A run, in full: state, steps, tool calls with their approval, usage and cost",
      description: "The run as it is now: the Run fields of spec §2.20 (`id`, `conversationId` (null for a run of a " +
        "schedule), `entityPublicId`, `triggerType` (MESSAGE, PLAYGROUND or SCHEDULE), `state`, `version`, " +
        "`failureCode`) and `scheduleId`, `provider` and `model` it ran with (null until it starts), `steps` (one " +
        "per model call, by `ordinal`: `state`, `finishReason`, its `inputTokens` and `outputTokens`, `startedAt`, " +
        "`completedAt`), `toolCalls` (by step, then as the model asked them: `id` (the `toolCallId` of " +
        "Runtime_DecideToolApproval), `stepOrdinal`, `stableName` and `toolId` of the tool, `arguments`, `state`, " +
        "`approvalState` (NOT_REQUIRED, PENDING: waiting for a person, APPROVED, DENIED) and `decidedAt`, `result` " +
        "and `isError` (what the tool answered), `errorCode`, `createdAt`, `startedAt`, `completedAt`), `usage` (the " +
        "run's `inputTokens` and `outputTokens` and `costMicroUsd`, micro-USD as decimal strings; the cost is null " +
        "when the model has no price configured), and the timings `createdAt`, `startedAt`, `completedAt`, " +
        "`deadlineAt` (past it the run ends TIMED_OUT) and `cancelRequestedAt`.\n\n" +
        "A run changes while it runs: the answer carries a strong `ETag` (a hash of the whole answer's data), and a " +
        "request with `If-None-Match` naming it is answered 304 with no body while nothing changed. Follow a run " +
        "live with its events rather than by polling this.\n\n" +
        "Who sees a run: a run of a conversation is visible to whoever sees the conversation. " +
        conversationVisibility + " A run without a conversation (a scheduled run) is visible to every ACTIVE member " +
        "of the workspace operating its agent. Any other run, and one that does not exist, is 404 `run-not-found` " +
        "(its existence is not revealed).",
      errors: [RunNotFound]
    })
  )
