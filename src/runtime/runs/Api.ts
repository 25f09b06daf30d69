/**
 * The conversation and run operations of the Runtime group (spec §2.19, §2.20, §4.4):
 * Runtime_SendMessage and Runtime_ClearPlaygroundRunData, added to `RuntimeApi`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { PlaygroundClearResult, SendMessageRequest, SentMessage } from "../Schemas.js"
import { operation } from "../../api/operation.js"
import { conversationVisibility } from "../conversations/Api.js"
import { ConfigurationMissing, PaymentRequired, RoleRequired } from "../../../schema/errors.js"
import { ConversationAuthorRequired, ConversationNotFound, MessageNotFound, PlaygroundRunRequired, RunInProgress, RunNotFound } from "../Errors.js"

/** POST /api/v1/conversations/{conversationId}/messages. */
export const sendMessage = HttpApiEndpoint.post("sendMessage", "/api/v1/conversations/:conversationId/messages")
  .setPath(Schema.Struct({ conversationId: Uuid }))
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(SendMessageRequest)
  .addSuccess(Data(SentMessage), { status: 202 })
  .pipe(
    operation({
      id: "Runtime_SendMessage",
      permission: "runtime.converse",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 402, 403, 404, 409, 422, 500],
      summary: "Send a message to the conversation's agent",
      description: "Stores `content` (1-100000 characters) as the user's message (state COMPLETE), creates the " +
        "assistant's answer (PENDING, `contentText` null) and a run (QUEUED, version 1; `triggerType` PLAYGROUND in a " +
        "playground conversation, else MESSAGE) and answers 202 with all three. The two messages take the next two " +
        "`ordinal`s of the conversation (each message one more than the last). The run then runs in the background " +
        "(its AgentRun workflow on the durable engine): the run goes QUEUED → RUNNING → SUCCEEDED and the answer PENDING → STREAMING (its " +
        "`contentText` grows as the agent's runtime produces it) → COMPLETE; if the runtime fails, the run ends FAILED " +
        "with a `failureCode` and the answer FAILED. The model may call the agent's granted runtime tools on the way: " +
        "a HIGH-risk tool, or one granted APPROVAL_REQUIRED, holds the run in APPROVAL_REQUIRED until " +
        "Runtime_DecideToolApproval; follow it with Runtime_StreamRunEvents, read it with Runtime_GetRun. The " +
        "deterministic runtime answers `demo-echo-1 received: \"<your message, 80 characters at most>\" (<n> words; turn " +
        "<t> of the conversation).`, and calls an offered tool when the message is `/tool <tool name> <JSON arguments>`. " +
        "Only who may read the conversation (Runtime_ListMessages) may send in it: " + conversationVisibility + " A " +
        "conversation that is absent, of an agent not operated by a workspace the caller is an ACTIVE member of, or " +
        "not visible to the caller is 404 `conversation-not-found` (its existence is not revealed). Sending starts a " +
        "run, so it needs a role that may start a conversation (Runtime_CreateConversation): OWNER, ADMIN, EDITOR or " +
        "OPERATOR (403 `role-required`, also for an author whose role no longer allows it). Only the account that " +
        "started the conversation may send in it (403 `conversation-author-required`). `parentMessageId` (optional) must be a message of this " +
        "conversation (404 `message-not-found` otherwise); without it the parent is the conversation's last message. " +
        "One run at a time per conversation: while a run of the conversation is active (not SUCCEEDED, FAILED, " +
        "CANCELLED or TIMED_OUT), sending is refused with 409 `run-in-progress`, also between concurrent senders. An " +
        "agent without a runtime configured answers 422 `configuration-missing`. An agent that sells its runtime (a " +
        "PUBLISHED offer with runtime access) may also be conversed with from other workspaces: there each run needs an " +
        "ACTIVE or GRACE entitlement to it, with runs left, in a workspace of the caller's, and uses one run of it; " +
        "without one the answer is 402 `payment-required` naming the offers to buy in `offerIds` (docs/runtime-access.md). " +
        "The agent's own workspace is never charged.",
      errors: [RoleRequired, ConversationAuthorRequired, ConversationNotFound, MessageNotFound, RunInProgress, ConfigurationMissing, PaymentRequired]
    })
  )

/** DELETE /api/v1/runs/{runId}/playground-data. */
export const clearPlaygroundRunData = HttpApiEndpoint.del("clearPlaygroundRunData", "/api/v1/runs/:runId/playground-data")
  .setPath(Schema.Struct({ runId: Uuid }))
  .setHeaders(IdempotencyKeyRequired)
  .addSuccess(Data(PlaygroundClearResult))
  .pipe(
    operation({
      id: "Runtime_ClearPlaygroundRunData",
      permission: "runtime.control",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 422, 500],
      summary: "Clear the data of a playground run",
      description: "Clears the content of a playground run's conversation: every message of it becomes REDACTED " +
        "with `contentText` null and `contentParts` empty (ordinals, roles and times stay), and the conversation's " +
        "finished runs get `dataClearedAt`. Answers the run's PlaygroundClearResult (spec §2.19). Clearing again " +
        "changes nothing and answers the same result (the first `dataClearedAt`). " +
        "Only who may read the run (Runtime_GetRun) may clear it: " + conversationVisibility + " A run that is " +
        "absent, of an agent not operated by a workspace the caller is an ACTIVE member of, or of a conversation " +
        "the caller does not see is 404 `run-not-found` (its existence is not revealed). Of those who see it, only " +
        "the OWNER, ADMIN, EDITOR and OPERATOR roles may clear (403 `role-required`). Only playground runs (`triggerType` PLAYGROUND) have playground data: any other run is " +
        "422 `playground-run-required` (a property of the run that no retry changes). While the run, or another run " +
        "of its conversation, is active (not SUCCEEDED, FAILED, CANCELLED or TIMED_OUT) the answer is 409 " +
        "`run-in-progress`: its messages are still being written.",
      errors: [RoleRequired, RunNotFound, RunInProgress, PlaygroundRunRequired]
    })
  )
