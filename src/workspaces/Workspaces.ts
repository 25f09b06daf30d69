/** Domain rules of the Workspaces area (spec §2.12, §4.3). */
import { Effect, Option } from "effect"
import { PolicyLocked, WorkspaceNotFound } from "../../schema/errors.js"
import type { Workspace } from "../../schema/workspaces.js"
import { Cursor } from "../../layers/Cursor.js"
import { ListPosition, WorkspacesRepo } from "./Repo.js"

/** Workspaces as seen by their members. Requires `SqlClient`, `Cursor`. */
export class Workspaces extends Effect.Service<Workspaces>()("agent-directory/Workspaces", {
  effect: Effect.gen(function*() {
    const repo = yield* WorkspacesRepo
    const cursor = yield* Cursor

    /**
     * Workspaces_GetWorkspace: the workspace with one page of members and one of
     * invitations (each `limit` long, oldest first), each continued by its own signed
     * cursor bound to the workspace and the caller.
     *
     * Fails with `NotFound` when the workspace does not exist or the caller is not an
     * ACTIVE member (existence is not revealed), `PolicyLocked` when a policy lock holds it,
     * `InvalidRequest` for a cursor that is not this list's.
     */
    const get = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly limit: number
      readonly membersCursor: string | undefined
      readonly invitationsCursor: string | undefined
    }) =>
      Effect.gen(function*() {
        const found = yield* repo.header(input.workspaceId, input.accountId)
        if (Option.isNone(found)) {
          return yield* new WorkspaceNotFound({ detail: `No workspace ${input.workspaceId}.` })
        }
        const { locked, ...header } = found.value
        if (locked) return yield* new PolicyLocked({ detail: "A policy lock holds this workspace; it cannot be read now." })
        const page = <Row extends { readonly position: typeof ListPosition.Type }>(
          list: "members" | "invitations",
          cursorValue: string | undefined,
          fetch: (after: typeof ListPosition.Type | undefined, take: number) => Effect.Effect<ReadonlyArray<Row>>
        ) =>
          cursor.page({
            position: ListPosition,
            cursor: cursorValue,
            param: `${list}Cursor`,
            binding: { operation: "Workspaces_GetWorkspace", list, workspace: input.workspaceId, principal: input.accountId },
            limit: input.limit,
            fetch,
            positionOf: (row) => row.position
          })
        const members = yield* page("members", input.membersCursor, (after, take) => repo.members(input.workspaceId, after, take))
        const invitations = yield* page(
          "invitations",
          input.invitationsCursor,
          (after, take) => repo.invitations(input.workspaceId, after, take)
        )
        return {
          ...header,
          members: members.rows.map((row) => row.item),
          invitations: invitations.rows.map((row) => row.item),
          membersNextCursor: members.nextCursor,
          invitationsNextCursor: invitations.nextCursor
        } satisfies Workspace
      })

    return { get }
  }),
  dependencies: [WorkspacesRepo.Default]
}) {}
