/**
 * The schedule operations of the Runtime group: Runtime_CreateAgentSchedule,
 * Runtime_ListAgentSchedules and Runtime_DeleteAgentSchedule, added to `RuntimeApi`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data, Page } from "../../../schema/envelope.js"
import {
  AgentNotFound,
  Conflict,
  ConfigurationMissing,
  InvalidCursor,
  InvalidRequest,
  InvalidState,
  RoleRequired,
  VersionConflict
} from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { AgentSchedule, CreateAgentScheduleRequest, DeleteAgentScheduleRequest, ListAgentSchedulesQuery } from "./Schemas.js"
import { LocationOf } from "../../api/location.js"
import { operation } from "../../api/operation.js"
import { agentVisibility } from "../../agentAccess/AgentVisibilityApi.js"
import { ScheduleNotFound } from "../Errors.js"

const AgentPath = Schema.Struct({ entityPublicId: Uuid })

const visibility = agentVisibility

const writers = "A " +
  "retired agent's schedules cannot be changed (409 `invalid-state`)."

/** The `Location` of a created schedule: its agent's schedule list entry. */
const schedulePath = (body: unknown): string | undefined => {
  const data = (body as { readonly data?: { readonly id?: unknown; readonly entityPublicId?: unknown } } | null)?.data
  return typeof data?.id === "string" && typeof data.entityPublicId === "string"
    ? `/api/v1/agents/${data.entityPublicId}/schedules/${data.id}`
    : undefined
}

/** POST /api/v1/agents/{entityPublicId}/schedules. */
export const createAgentSchedule = HttpApiEndpoint.post("createAgentSchedule", "/api/v1/agents/:entityPublicId/schedules")
  .setPath(AgentPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(CreateAgentScheduleRequest)
  .addSuccess(Data(AgentSchedule), { status: 201 })
  .annotate(LocationOf, schedulePath)
  .pipe(
    operation({
      id: "Runtime_CreateAgentSchedule",
      permission: "runtime.schedules.write",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 422, 500],
      summary: "Save a cron schedule that sends a message to the agent at each occurrence",
      description: "Saves a schedule and answers 201 with it (version 1) and its URL in `Location`. `cronExpression` " +
        "and `timezone` are validated exactly as Runtime_PreviewAgentSchedule validates them (five fields or one of " +
        "the crontab(5) macros `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly`; an IANA zone, answered in its canonical spelling): an invalid expression, or one that never " +
        "fires, is a 400 naming `/cronExpression`, an unknown zone a 400 naming `/timezone`. `message` (1-100000 " +
        "characters) is what each occurrence sends; `enabled` (default true); `title` (1-200 characters or null, " +
        "default null).\n\n" +
        "The schedule gets its own CHAT conversation (`conversationId`, started by the caller, titled like the " +
        "schedule). At each occurrence (the instants the preview shows for the same expression and zone, daylight-" +
        "saving changes included) the service posts `message` there as a user message and starts one run " +
        "(`triggerType` SCHEDULE), exactly as Runtime_SendMessage does, once across all server processes; " +
        "`lastFiredAt` and `lastRunId` then name it and `nextOccurrenceAt` moves to the next occurrence. The firing " +
        "checks every minute, so a run starts within about a minute after its occurrence. One run at a time: if the " +
        "schedule's previous run is still active, that occurrence is skipped (never queued). Occurrences missed while " +
        "no server ran are not replayed one by one: the schedule fires once, then continues with its next future " +
        "occurrence. A disabled schedule (`nextOccurrenceAt` null) never fires.\n\n" +
        visibility + " " + writers + " The agent needs a runtime configured (422 `configuration-missing`, as for " +
        "sending a message). A body that does not decode (a field missing, of the wrong type or length, an unknown " +
        "field) is a 400 before anything else; then refusals come in this order: 404, 403, 400 (the expression or " +
        "zone), 409, 422.",
      errors: [AgentNotFound, RoleRequired, InvalidRequest, InvalidState, ConfigurationMissing]
    })
  )

/** GET /api/v1/agents/{entityPublicId}/schedules. */
export const listAgentSchedules = HttpApiEndpoint.get("listAgentSchedules", "/api/v1/agents/:entityPublicId/schedules")
  .setPath(AgentPath)
  .setUrlParams(ListAgentSchedulesQuery)
  .addSuccess(Page(AgentSchedule, 100))
  .pipe(
    operation({
      id: "Runtime_ListAgentSchedules",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 500],
      summary: "The agent's schedules (cursor pages)",
      description: "The agent's schedules that are not deleted, oldest first, `limit` per page (1-100, default 25), " +
        "each with its next occurrence and its last run. Pass `nextCursor` back as `cursor` for the next page; it is " +
        "signed and bound to this agent and caller (any other: 400 `invalid-cursor`). " + visibility +
        " Every workspace role may read the schedules.",
      errors: [AgentNotFound, InvalidCursor]
    })
  )

/** DELETE /api/v1/agents/{entityPublicId}/schedules/{scheduleId}. */
export const deleteAgentSchedule = HttpApiEndpoint.del(
  "deleteAgentSchedule",
  "/api/v1/agents/:entityPublicId/schedules/:scheduleId"
)
  .setPath(Schema.Struct({ entityPublicId: Uuid, scheduleId: Uuid }))
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(DeleteAgentScheduleRequest)
  .addSuccess(Data(AgentSchedule))
  .pipe(
    operation({
      id: "Runtime_DeleteAgentSchedule",
      permission: "runtime.schedules.write",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 500],
      summary: "Delete a schedule at the version you read; it never fires again",
      description: "Deletes the schedule: it leaves the list and never fires again (a run it already started goes " +
        "on; its conversation and runs stay). Answers the deleted schedule (`version` + 1, `nextOccurrenceAt` null). " +
        "Body: `expectedVersion`, the `version` the caller read (optimistic concurrency, as every versioned command): " +
        "any other is 409 `version-conflict` (of concurrent deletions at one version one succeeds). An unknown id, a " +
        "schedule of another agent or one already deleted is 404 `schedule-not-found` (a retry with the same " +
        "`Idempotency-Key` replays the first answer). " + visibility + " " + writers + " Refusals come in this " +
        "order: 404 `agent-not-found`, 403, 409 `invalid-state`, 404 `schedule-not-found`, 409 `version-conflict`.",
      errors: [AgentNotFound, RoleRequired, InvalidState, ScheduleNotFound, VersionConflict, Conflict]
    })
  )
