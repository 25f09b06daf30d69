/**
 * Agent schedules (spec §1 "schedules", §4.4): a cron expression in
 * an IANA time zone whose every occurrence sends `message` to the agent in the
 * schedule's own conversation (one run, `triggerType` SCHEDULE).
 */
import { Schema } from "effect"
import { DateTimeZ, QueryInt, rule, StrictStruct, Uuid, Version, WireString } from "../../../schema/common.js"

/**
 * AgentSchedule: one saved schedule of an agent. `timezone` is the canonical IANA
 * name; `nextOccurrenceAt` the instant it fires next (null when disabled or deleted,
 * or when the expression never fires again); `lastFiredAt` when it last started a run,
 * `lastRunId` that run; `conversationId` the CHAT conversation its runs post in.
 * `version` and `updatedAt` change with the schedule's definition (its commands),
 * not with its firings.
 */
export const AgentSchedule = Schema.Struct({
  id: Uuid,
  entityPublicId: Uuid,
  cronExpression: Schema.String,
  timezone: Schema.String,
  message: Schema.String,
  title: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  nextOccurrenceAt: Schema.NullOr(DateTimeZ),
  lastFiredAt: Schema.NullOr(DateTimeZ),
  lastRunId: Schema.NullOr(Uuid),
  conversationId: Uuid,
  version: Version,
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "AgentSchedule" })
export type AgentSchedule = typeof AgentSchedule.Type

/**
 * Body of Runtime_CreateAgentSchedule: the expression and zone as
 * Runtime_PreviewAgentSchedule takes them, the message each occurrence sends (1-100000
 * characters, as Runtime_SendMessage), `enabled` (default true) and an optional title
 * (1-200 characters or null, also the title of the schedule's conversation).
 */
export const CreateAgentScheduleRequest = StrictStruct({
  cronExpression: WireString(5, 200),
  timezone: WireString(1, 100),
  message: WireString(1, 100_000),
  enabled: Schema.optionalWith(Schema.Boolean.annotations(rule("must be a boolean")), { default: () => true, exact: true }),
  title: Schema.optional(Schema.NullOr(WireString(1, 200)))
}).annotations({ identifier: "CreateAgentScheduleRequest" })
export type CreateAgentScheduleRequest = typeof CreateAgentScheduleRequest.Type

/** Body of Runtime_DeleteAgentSchedule: the `version` the caller read (optimistic concurrency). */
export const DeleteAgentScheduleRequest = StrictStruct({ expectedVersion: Version })
  .annotations({ identifier: "DeleteAgentScheduleRequest" })
export type DeleteAgentScheduleRequest = typeof DeleteAgentScheduleRequest.Type

/** Query of Runtime_ListAgentSchedules: `limit` (1-100, default 25) and the signed `cursor` of the previous page. */
export const ListAgentSchedulesQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true })
})
