/** Runtime area (spec §2.15, §2.19, §2.20, §4.4): runtime tools, schedule previews, conversations and runs. */
import { Schema } from "effect"
import { AnyJson, DateTimeZ, rule, StrictStruct, Uuid, Version, WireString } from "../../schema/common.js"

/** Runtime tool (spec §2.15): one tool an agent's runtime can call. */
export const RuntimeTool = Schema.Struct({
  id: Uuid,
  stableName: Schema.String,
  version: Schema.Int,
  description: Schema.String,
  inputSchema: AnyJson,
  outputSchema: Schema.NullOr(AnyJson),
  riskClass: Schema.String,
  executorKind: Schema.String,
  executionClass: Schema.String,
  sourceKind: Schema.String,
  sourceReference: Schema.NullOr(Schema.String),
  implementationVersion: Schema.String,
  available: Schema.Boolean,
  unavailableAt: Schema.NullOr(DateTimeZ),
  state: Schema.String,
  grantState: Schema.NullOr(Schema.String),
  definitionDigest: Schema.NullOr(Schema.String),
  remoteDefinition: Schema.NullOr(AnyJson),
  createdAt: DateTimeZ
}).annotations({ identifier: "RuntimeTool" })
export type RuntimeTool = typeof RuntimeTool.Type

/** Body of Runtime_PreviewAgentSchedule (spec §4.4, §8). */
export const PreviewAgentScheduleRequest = StrictStruct({
  cronExpression: WireString(5, 200),
  timezone: WireString(1, 100),
  count: Schema.optionalWith(
    Schema.Int.pipe(Schema.between(1, 25), Schema.annotations(rule("must be an integer 1-25"))),
    { default: () => 8, exact: true }
  ),
  from: Schema.optional(DateTimeZ.annotations(rule("must be an ISO 8601 UTC date-time ending in Z")))
}).annotations({ identifier: "PreviewAgentScheduleRequest" })
export type PreviewAgentScheduleRequest = typeof PreviewAgentScheduleRequest.Type

/** Result of Runtime_PreviewAgentSchedule: the next occurrences, as UTC instants. */
export const SchedulePreview = Schema.Struct({
  timezone: Schema.String,
  occurrences: Schema.Array(DateTimeZ)
}).annotations({ identifier: "SchedulePreview" })
export type SchedulePreview = typeof SchedulePreview.Type

/** Run states (spec §3). */
export const RunState = Schema.Literal(
  "CREATED", "QUEUED", "PREPARING", "RUNNING", "INPUT_REQUIRED", "APPROVAL_REQUIRED",
  "SETTLING", "SUCCEEDED", "FAILED", "CANCELLED", "TIMED_OUT"
).annotations({ identifier: "RunState" })
export type RunState = typeof RunState.Type

/** The run states in which a run is over; every other state is "active". */
export const FinishedRunStates = ["SUCCEEDED", "FAILED", "CANCELLED", "TIMED_OUT"] as const satisfies ReadonlyArray<RunState>

/** Message states (spec §3). */
export const MessageState = Schema.Literal("PENDING", "STREAMING", "COMPLETE", "FAILED", "CANCELLED", "REDACTED")
  .annotations({ identifier: "MessageState" })
export type MessageState = typeof MessageState.Type

/** A message's position in its conversation (spec §2.20): a digit string starting 1-9. */
export const Ordinal = Schema.String.pipe(
  Schema.pattern(/^[1-9][0-9]*$/),
  Schema.annotations({ identifier: "Ordinal", description: "position in the conversation, a digit string starting 1-9" })
)

/** Conversation message (spec §2.20). */
export const Message = Schema.Struct({
  id: Uuid,
  ordinal: Ordinal,
  role: Schema.String,
  state: MessageState,
  contentText: Schema.NullOr(Schema.String),
  contentParts: AnyJson,
  runId: Schema.NullOr(Uuid),
  createdAt: DateTimeZ,
  completedAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "Message" })
export type Message = typeof Message.Type

/** Run (spec §2.20; the fields the spec shows). */
export const Run = Schema.Struct({
  id: Uuid,
  conversationId: Schema.NullOr(Uuid),
  entityPublicId: Uuid,
  triggerType: Schema.String,
  state: RunState,
  version: Version,
  failureCode: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Run" })
export type Run = typeof Run.Type

/** Body of Runtime_SendMessage (spec §4.4, §8: content 1-100000 characters). */
export const SendMessageRequest = StrictStruct({
  content: WireString(1, 100_000),
  parentMessageId: Schema.optional(Schema.NullOr(Uuid))
}).annotations({ identifier: "SendMessageRequest" })
export type SendMessageRequest = typeof SendMessageRequest.Type

/** Result of Runtime_SendMessage (202): the stored user message, the pending answer and the queued run. */
export const SentMessage = Schema.Struct({
  userMessage: Message,
  assistantMessage: Message,
  run: Run
}).annotations({ identifier: "SentMessage" })
export type SentMessage = typeof SentMessage.Type

/** Result of Runtime_ClearPlaygroundRunData (spec §2.19). */
export const PlaygroundClearResult = Schema.Struct({
  runId: Uuid,
  conversationId: Uuid,
  state: RunState,
  retentionExpiresAt: DateTimeZ,
  dataClearedAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "PlaygroundClearResult" })
export type PlaygroundClearResult = typeof PlaygroundClearResult.Type
