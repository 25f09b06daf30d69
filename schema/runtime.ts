/** Runtime area (spec §2.15, §4.4): runtime tools and schedule previews. */
import { Schema } from "effect"
import { DateTimeZ, rule, StrictStruct, Uuid, WireString } from "./common.js"

/** "any JSON" of the spec: a JSON value of any shape (object, array, string, number, boolean, null). */
export const AnyJson = Schema.Unknown.annotations({ identifier: "AnyJson", description: "any JSON value" })

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
