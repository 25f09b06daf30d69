/**
 * The problem causes of Agent runtime: conversations and runs (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `conversation-not-found`: no such conversation with an agent of the caller's workspaces. */
export class ConversationNotFound extends Problem<ConversationNotFound>()("ConversationNotFound", {
  status: 404, type: "conversation-not-found", meaning: "no such conversation with an agent of the caller's workspaces"
}) {}
/** 404 `run-not-found`: no such run of an agent of the caller's workspaces. */
export class RunNotFound extends Problem<RunNotFound>()("RunNotFound", {
  status: 404, type: "run-not-found", meaning: "no such run of an agent of the caller's workspaces"
}) {}
/** 404 `message-not-found`: no such message in the conversation. */
export class MessageNotFound extends Problem<MessageNotFound>()("MessageNotFound", {
  status: 404, type: "message-not-found", meaning: "no such message in the conversation"
}) {}
/** 403 `conversation-author-required`: only the account that started the conversation writes in it. */
export class ConversationAuthorRequired extends Problem<ConversationAuthorRequired>()("ConversationAuthorRequired", {
  status: 403, type: "conversation-author-required", meaning: "only the account that started the conversation writes in it"
}) {}
/** 409 `run-in-progress`: a run is still active (not SUCCEEDED, FAILED, CANCELLED or TIMED_OUT). */
export class RunInProgress extends Problem<RunInProgress>()("RunInProgress", {
  status: 409, type: "run-in-progress", meaning: "a run is still active (not SUCCEEDED, FAILED, CANCELLED or TIMED_OUT)"
}) {}
/** 422 `playground-run-required`: the run is not a playground run. */
export class PlaygroundRunRequired extends Problem<PlaygroundRunRequired>()("PlaygroundRunRequired", {
  status: 422, type: "playground-run-required", meaning: "the run is not a playground run"
}) {}
/**
 * 503 `stream-limit-reached`: this server process already serves as many run event streams
 * as it may (`RUN_EVENTS_MAX_STREAMS`); retry after `Retry-After` seconds.
 */
export class StreamLimitReached extends Problem<StreamLimitReached>()("StreamLimitReached", {
  status: 503, type: "stream-limit-reached",
  meaning: "the server serves as many run event streams as it may; retry after `Retry-After` seconds"
}) {}
/** 404 `schedule-not-found`: no such schedule (not deleted) of the agent. */
export class ScheduleNotFound extends Problem<ScheduleNotFound>()("ScheduleNotFound", {
  status: 404, type: "schedule-not-found", meaning: "no such schedule (not deleted) of the agent"
}) {}
/** 404 `tool-call-not-found`: no such tool call in the run. */
export class ToolCallNotFound extends Problem<ToolCallNotFound>()("ToolCallNotFound", {
  status: 404, type: "tool-call-not-found", meaning: "no such tool call in the run"
}) {}
/** 409 `approval-not-pending`: the tool call awaits no decision (decided already, not needing one, or ended). */
export class ApprovalNotPending extends Problem<ApprovalNotPending>()("ApprovalNotPending", {
  status: 409, type: "approval-not-pending", meaning: "the tool call awaits no decision (decided already, not needing one, or ended)"
}) {}
/** 422 `model-profile-unknown`: the `provider` names no model profile of the server's configuration. */
export class ModelProfileUnknown extends Problem<ModelProfileUnknown>()("ModelProfileUnknown", {
  status: 422, type: "model-profile-unknown", meaning: "the provider names no model profile configured on the server (MODEL_PROFILES)"
}) {}
