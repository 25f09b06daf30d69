/** Workspaces_ListAuditEvents: a workspace's audit trail for its OWNERs and ADMINs (docs/audit.md). */
import { Effect, Option } from "effect"
import { Cursor } from "../../../layers/Cursor.js"
import { RoleRequired, WorkspaceNotFound } from "../../../schema/errors.js"
import { can, rolesInWords } from "../../../schema/roles.js"
import { WorkspacesRepo } from "../Repo.js"
import { AuditEventsRepo, AuditPosition } from "./Repo.js"

/** The audit trail's reader. Requires `SqlClient`, `Cursor`. */
export class AuditEvents extends Effect.Service<AuditEvents>()("agent-directory/AuditEvents", {
  effect: Effect.gen(function*() {
    const workspaces = yield* WorkspacesRepo
    const repo = yield* AuditEventsRepo
    const cursor = yield* Cursor

    /**
     * One page (`limit`) of the workspace's events, newest first, optionally only those of
     * `action` and those at or after `since`; `cursor` continues a page and is bound to the
     * workspace, the caller and the filters.
     *
     * Fails with `WorkspaceNotFound` when the caller is not an ACTIVE member (existence not
     * revealed), `RoleRequired` when the caller's role lacks `audit.read`, `InvalidCursor`
     * for a cursor that is not this list's.
     */
    const list = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly limit: number
      readonly cursor?: string | undefined
      readonly action?: string | undefined
      readonly since?: Date | undefined
    }) =>
      Effect.gen(function*() {
        const found = yield* workspaces.header(input.workspaceId, input.accountId)
        if (Option.isNone(found)) {
          return yield* new WorkspaceNotFound({ detail: `No workspace ${input.workspaceId}.` })
        }
        if (!can(found.value.role, "audit.read")) {
          return yield* new RoleRequired({ detail: `Reading the audit trail needs ${rolesInWords("audit.read")}.` })
        }
        const action = input.action ?? null
        const since = input.since?.toISOString() ?? null
        const page = yield* cursor.page({
          position: AuditPosition,
          cursor: input.cursor,
          param: "cursor",
          binding: {
            operation: "Workspaces_ListAuditEvents",
            workspace: input.workspaceId,
            principal: input.accountId,
            action,
            since
          },
          limit: input.limit,
          fetch: (after, take) => repo.list({ workspaceId: input.workspaceId, action, since, after, take }),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((row) => row.event), nextCursor: page.nextCursor }
      })

    return { list }
  }),
  dependencies: [WorkspacesRepo.Default, AuditEventsRepo.Default]
}) {}
