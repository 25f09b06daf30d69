/**
 * Domain rules of agent schedules: Runtime_CreateAgentSchedule,
 * Runtime_ListAgentSchedules and Runtime_DeleteAgentSchedule. Commands run inside the
 * command's one transaction (`src/http/group.ts`); the firing is `./ScheduleFiring.ts`.
 */
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { Cursor } from "../../../layers/Cursor.js"
import { Ids } from "../../../layers/Ids.js"
import { ConfigurationMissing } from "../../../schema/errors.js"
import type { CreateAgentScheduleRequest } from "./Schemas.js"
import { AgentOperators, requireActiveAgent } from "../../agentAccess/Operators.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { explainRefusal } from "../../db/versioned.js"
import { ScheduleNotFound } from "../Errors.js"
import { nextOccurrence, parseSchedule } from "./Schedule.js"
import { SchedulePosition, SchedulesRepo } from "./Repo.js"
import { rolesFor } from "../../../schema/roles.js"


/** Agent schedules. Requires `SqlClient`, `Ids`, `Cursor`. */
export class Schedules extends Effect.Service<Schedules>()("agent-directory/Schedules", {
  effect: Effect.gen(function*() {
    const repo = yield* SchedulesRepo
    const operators = yield* AgentOperators
    const ids = yield* Ids
    const cursor = yield* Cursor

    const writer = (input: { readonly entityPublicId: string; readonly accountId: string }, action: string) =>
      operators.access({ ...input, roles: { allowed: rolesFor("runtime.schedules.write"), action } })

    /**
     * Runtime_CreateAgentSchedule: validates the expression and zone as the preview does,
     * creates the schedule's CHAT conversation (author: the caller, title: the
     * schedule's) and the schedule (version 1), whose `nextOccurrenceAt` is its first
     * occurrence after now (null when disabled).
     *
     * Fails, in this order, with `AgentNotFound` (`agent-not-found`), `RoleRequired`
     * (`role-required`: not OWNER, ADMIN or EDITOR), `InvalidRequest` naming
     * `/cronExpression` or `/timezone`, `InvalidState` (`invalid-state`: the agent is
     * retired), `ConfigurationMissing` (`configuration-missing`: no runtime configured).
     */
    const create = (input: {
      readonly entityPublicId: string
      readonly accountId: string
      readonly body: CreateAgentScheduleRequest
    }) =>
      Effect.gen(function*() {
        const action = "Creating a schedule"
        const access = yield* writer(input, action)
        const at = yield* now
        const schedule = yield* parseSchedule({ ...input.body, from: at })
        yield* requireActiveAgent(access, action)
        if (!access.runtimeConfigured) {
          return yield* new ConfigurationMissing({
            detail: "The agent has no runtime configured; configure its runtime before scheduling runs."
          })
        }
        const title = input.body.title ?? null
        const conversationId = yield* ids.next
        yield* repo.insertConversation({ id: conversationId, agentId: input.entityPublicId, accountId: input.accountId, title, at })
        return yield* repo.insert({
          id: yield* ids.next,
          agentId: input.entityPublicId,
          conversationId,
          createdBy: input.accountId,
          cronExpression: schedule.cronExpression,
          timezone: schedule.timezone,
          message: input.body.message,
          title,
          enabled: input.body.enabled,
          nextOccurrenceAt: input.body.enabled ? nextOccurrence(schedule, at) : null,
          at
        })
      }).pipe(dieOnStorageFailure, Effect.catchTag("NoSuchElementException", Effect.die))

    /**
     * Runtime_ListAgentSchedules: one page of the agent's schedules (not deleted),
     * oldest first, with the signed cursor of the next page (bound to the agent and the
     * caller). Every workspace role may read.
     *
     * Fails with `AgentNotFound` (`agent-not-found`), `InvalidCursor` (`invalid-cursor`).
     */
    const list = (input: {
      readonly entityPublicId: string
      readonly accountId: string
      readonly limit: number
      readonly cursor?: string | undefined
    }) =>
      Effect.gen(function*() {
        yield* operators.access(input)
        const page = yield* cursor.page({
          position: SchedulePosition,
          cursor: input.cursor,
          param: "cursor",
          binding: { operation: "Runtime_ListAgentSchedules", agent: input.entityPublicId, principal: input.accountId },
          limit: input.limit,
          fetch: (after, take) => dieOnStorageFailure(repo.list(input.entityPublicId, after, take)),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((row) => row.schedule), nextCursor: page.nextCursor }
      })

    /**
     * Runtime_DeleteAgentSchedule: deletes the schedule at `expectedVersion` (one
     * conditional UPDATE): it leaves the list and never fires again; its conversation and
     * runs stay. Answers the deleted schedule (version + 1, `nextOccurrenceAt` null).
     *
     * Fails, in this order, with `AgentNotFound` (`agent-not-found`), `RoleRequired`
     * (`role-required`), `InvalidState` (`invalid-state`: the agent is retired),
     * `ScheduleNotFound` (`schedule-not-found`: absent, deleted or another agent's),
     * `VersionConflict` (`version-conflict`), `Conflict` (the schedule changed between the update and the
     * read that explains it).
     */
    const remove = (input: {
      readonly entityPublicId: string
      readonly accountId: string
      readonly scheduleId: string
      readonly expectedVersion: number
    }) =>
      Effect.gen(function*() {
        const action = "Deleting a schedule"
        const access = yield* writer(input, action)
        yield* requireActiveAgent(access, action)
        const key = { id: input.scheduleId, agentId: input.entityPublicId }
        const deleted = yield* repo.markDeleted({ ...key, expectedVersion: input.expectedVersion, at: yield* now })
        if (Option.isSome(deleted)) return deleted.value
        return yield* explainRefusal({
          resource: "schedule",
          id: input.scheduleId,
          notFound: (detail) => new ScheduleNotFound({ detail }),
          current: yield* repo.current(key),
          expectedVersion: input.expectedVersion
        })
      }).pipe(dieOnStorageFailure)

    return { create, list, remove }
  }),
  dependencies: [SchedulesRepo.Default, AgentOperators.Default]
}) {}
