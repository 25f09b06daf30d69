/**
 * Domain rules of the Workspaces area (spec §2.12, §3 Workspace states, §4.3): reading a
 * workspace, the caller's list, and the lifecycle ACTIVE ↔ SUSPENDED (platform
 * administrators), ACTIVE → CLOSING → CLOSED (its owner; CLOSED after the grace period, on
 * the durable engine). Commands run in the command's one transaction (`src/http/group.ts`)
 * and write their audit event in it.
 */
import { WorkflowEngine } from "@effect/workflow"
import { Effect, Option } from "effect"
import { Audit } from "../../layers/Audit.js"
import { now } from "../../layers/Clock.js"
import { Cursor } from "../../layers/Cursor.js"
import { Ids } from "../../layers/Ids.js"
import { InvalidState, PolicyLocked, RoleRequired, WorkspaceNotFound } from "../../schema/errors.js"
import { type Permission, rolesFor, rolesInWords } from "../../schema/roles.js"
import type {
  AdminWorkspace,
  CreateWorkspaceRequest,
  UpdateWorkspaceRequest,
  Workspace,
  WorkspaceSummary
} from "../../schema/workspaces.js"
import { explainRefusal } from "../db/versioned.js"
import { stopWorkspaceSchedules } from "../runtime/index.js"
import { WorkspaceCloseWorkflow } from "./CloseWorkflow.js"
import { WorkspaceSettings } from "./Config.js"
import { SlugTaken, WorkspaceLimitReached, WorkspaceNotActive } from "./Errors.js"
import { ListPosition, WorkspaceListPosition, WorkspacesRepo } from "./Repo.js"

/** How many workspaces (not CLOSED) one account may own; one more is 409 `workspace-limit-reached`. */
export const MaxOwnedWorkspaces = 20

/** The slug of a name when none is given: lower case ASCII letters and digits, other runs become one `-`, at most 63. */
export const slugOfName = (name: string): string => {
  const ascii = name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
  const slug = ascii.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 56).replace(/-+$/, "")
  return slug.length >= 3 ? slug : `workspace${slug === "" ? "" : `-${slug}`}`
}

/** What Workspaces_GetWorkspace reads: the workspace, the caller, the page size and each list's cursor. */
interface GetInput {
  readonly workspaceId: string
  readonly accountId: string
  readonly limit: number
  readonly membersCursor: string | undefined
  readonly invitationsCursor: string | undefined
}

/** Workspaces as seen by their members and by administrators. Requires `SqlClient`, `Cursor`, `Ids`, `Audit`, `WorkflowEngine`, `WorkspaceSettings`. */
export class Workspaces extends Effect.Service<Workspaces>()("agent-directory/Workspaces", {
  effect: Effect.gen(function*() {
    const repo = yield* WorkspacesRepo
    const cursor = yield* Cursor
    const ids = yield* Ids
    const audit = yield* Audit
    const engine = yield* WorkflowEngine.WorkflowEngine
    const settings = yield* WorkspaceSettings

    /**
     * Workspaces_GetWorkspace: the workspace with one page of members and one of
     * invitations (each `limit` long, oldest first), each continued by its own signed
     * cursor bound to the workspace and the caller.
     *
     * Fails with `NotFound` when the workspace does not exist or the caller is not an
     * ACTIVE member (existence is not revealed), `PolicyLocked` when a policy lock holds it,
     * `InvalidRequest` for a cursor that is not this list's.
     */
    const get = (input: GetInput) => read(input, true)

    /** {@link get}, with the locks (policy lock, SUSPENDED) enforced or not. */
    const read = (input: GetInput, enforceLocks: boolean) =>
      Effect.gen(function*() {
        const found = yield* repo.header(input.workspaceId, input.accountId)
        if (Option.isNone(found)) {
          return yield* new WorkspaceNotFound({ detail: `No workspace ${input.workspaceId}.` })
        }
        const { locked, ...header } = found.value
        if (enforceLocks && locked) return yield* new PolicyLocked({ detail: "A policy lock holds this workspace; it cannot be read now." })
        if (enforceLocks && header.state === "SUSPENDED") {
          return yield* new PolicyLocked({ detail: "The workspace is suspended by the platform; it cannot be read now." })
        }
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

    /**
     * The workspace as its member `accountId` reads it after a command (first page of 50 of
     * each list, whatever lock holds it): the command's own row, so any failure is a defect.
     */
    const view = (workspaceId: string, accountId: string) =>
      Effect.orDie(read({ workspaceId, accountId, limit: 50, membersCursor: undefined, invitationsCursor: undefined }, false))

    /** Why a command of `permission` on the workspace changed nothing: 404, 403, 409 version, 409 not active, 409. */
    const refusal = (workspaceId: string, accountId: string, permission: Permission, expectedVersion: number, action: string) =>
      Effect.gen(function*() {
        const found = yield* repo.current(workspaceId, accountId)
        const notFound = () => new WorkspaceNotFound({ detail: `No workspace ${workspaceId}.` })
        if (Option.isNone(found) || found.value.role === null) return yield* notFound()
        if (!rolesFor(permission).includes(found.value.role as never)) {
          return yield* new RoleRequired({ detail: `${action} needs ${rolesInWords(permission)} in the workspace.` })
        }
        return yield* explainRefusal({
          resource: "workspace",
          id: workspaceId,
          notFound,
          current: found,
          expectedVersion,
          otherwise: (row) =>
            row.state === "ACTIVE" ? Option.none() : Option.some(
              new WorkspaceNotActive({ detail: `The workspace is ${row.state}; only an ACTIVE workspace can be changed.` })
            )
        }).pipe(Effect.catchTag("InvalidState", Effect.die)) // no `fromStates`: never an InvalidState
      })

    /**
     * Workspaces_CreateWorkspace: a new ACTIVE workspace (version 1) whose creator is its
     * ACTIVE OWNER member (`isWorkspaceOwner`); the caller's first workspace becomes the
     * default. The slug is the given one, or derived from the name ({@link slugOfName}, with
     * `-2`, `-3`, … when taken). Audit `workspace.created`. Answers the workspace as
     * Workspaces_GetWorkspace shows it.
     *
     * Fails with `SlugTaken` (`slug-taken`: the given slug is another workspace's),
     * `WorkspaceLimitReached` (`workspace-limit-reached`: the caller already owns
     * {@link MaxOwnedWorkspaces} workspaces that are not CLOSED).
     */
    const create = (input: { readonly accountId: string; readonly body: CreateWorkspaceRequest }) =>
      Effect.gen(function*() {
        yield* repo.lockAccount(input.accountId)
        if ((yield* repo.ownedCount(input.accountId)) >= MaxOwnedWorkspaces) {
          return yield* new WorkspaceLimitReached({
            detail: `An account may own at most ${MaxOwnedWorkspaces} workspaces that are not closed; close one first.`
          })
        }
        const name = input.body.name.trim()
        const at = yield* now
        const id = yield* ids.next
        const slug = yield* chooseSlug(input.body.slug, name)
        if (!(yield* repo.insert({ id, name, slug, createdBy: input.accountId, at }))) {
          return yield* new SlugTaken({
            detail: "Another workspace already has this slug; choose another.",
            errors: [{ in: "body", pointer: "/slug", detail: "must not be another workspace's slug" }]
          })
        }
        const isDefault = !(yield* repo.hasDefault(input.accountId))
        yield* repo.insertOwner({ workspaceId: id, accountId: input.accountId, isDefault, at })
        yield* audit.record({
          workspaceId: id,
          actorAccountId: input.accountId,
          action: "workspace.created",
          target: { type: "workspace", id },
          details: { slug, isDefault }
        })
        return yield* view(id, input.accountId)
      })

    /** The given slug, or the name's with the first free `-n` suffix (n = 2, 3, …). */
    const chooseSlug = (given: string | undefined, name: string) =>
      given !== undefined ? Effect.succeed(given) : Effect.map(repo.slugsLike(slugOfName(name)), (taken) => {
        const base = slugOfName(name)
        if (!taken.has(base)) return base
        for (let n = 2;; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
      })

    /**
     * Workspaces_ListWorkspaces: one page of the caller's workspaces (ACTIVE memberships, any
     * workspace state), the default first, then by name (byte order) and id, with the signed
     * cursor of the next page (bound to the caller). Fails with `InvalidCursor`.
     */
    const list = (input: { readonly accountId: string; readonly limit: number; readonly cursor: string | undefined }) =>
      Effect.map(
        cursor.page({
          position: WorkspaceListPosition,
          cursor: input.cursor,
          param: "cursor",
          binding: { operation: "Workspaces_ListWorkspaces", principal: input.accountId },
          limit: input.limit,
          fetch: (after, take) => repo.list(input.accountId, after, take),
          positionOf: (row) => row.position
        }),
        (page) => ({ rows: page.rows.map((row): WorkspaceSummary => row.item), nextCursor: page.nextCursor })
      )

    /**
     * Workspaces_UpdateWorkspace: a new name and/or slug at `expectedVersion` (version + 1),
     * by a member holding `workspace.update`, while the workspace is ACTIVE. Audit
     * `workspace.updated`. Fails, in this order, with `WorkspaceNotFound`, `RoleRequired`,
     * `VersionConflict`, `WorkspaceNotActive`, `SlugTaken`, `Conflict`.
     */
    const update = (input: { readonly workspaceId: string; readonly accountId: string; readonly body: UpdateWorkspaceRequest }) =>
      Effect.gen(function*() {
        const { expectedVersion, slug } = input.body
        const name = input.body.name?.trim()
        const changed = yield* repo.update({
          workspaceId: input.workspaceId,
          accountId: input.accountId,
          roles: rolesFor("workspace.update"),
          expectedVersion,
          name,
          slug,
          at: yield* now
        }, () =>
          new SlugTaken({
            detail: "Another workspace already has this slug; choose another.",
            errors: [{ in: "body", pointer: "/slug", detail: "must not be another workspace's slug" }]
          }))
        if (Option.isNone(changed)) {
          return yield* refusal(input.workspaceId, input.accountId, "workspace.update", expectedVersion, "Changing a workspace")
        }
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "workspace.updated",
          target: { type: "workspace", id: input.workspaceId },
          details: { nameChanged: name !== undefined, slugChanged: slug !== undefined, version: changed.value }
        })
        return yield* view(input.workspaceId, input.accountId)
      })

    /**
     * Workspaces_CloseWorkspace: ACTIVE → CLOSING at `expectedVersion` (version + 1), by a
     * member holding `workspace.close` (the OWNER). In the same transaction every API key of
     * the workspace is revoked, every schedule of its agents stopped, the audit event
     * `workspace.closing` written and the {@link WorkspaceCloseWorkflow} started, which makes
     * it CLOSED after `WORKSPACE_CLOSE_GRACE_HOURS` on the engine's durable clock. Fails as
     * {@link update} (no `SlugTaken`).
     */
    const close = (input: { readonly workspaceId: string; readonly accountId: string; readonly expectedVersion: number }) =>
      Effect.gen(function*() {
        const at = yield* now
        const closesAt = new Date(at.getTime() + settings.workspaces.closeGraceHours * 3_600_000)
        const changed = yield* repo.startClosing({
          workspaceId: input.workspaceId,
          accountId: input.accountId,
          roles: rolesFor("workspace.close"),
          expectedVersion: input.expectedVersion,
          at,
          closesAt
        })
        if (Option.isNone(changed)) {
          return yield* refusal(input.workspaceId, input.accountId, "workspace.close", input.expectedVersion, "Closing a workspace")
        }
        const keysRevoked = yield* repo.revokeApiKeys(input.workspaceId, at)
        const schedulesStopped = yield* Effect.orDie(stopWorkspaceSchedules(input.workspaceId, at))
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "workspace.closing",
          target: { type: "workspace", id: input.workspaceId },
          details: { keysRevoked, schedulesStopped, closesAt: closesAt.toISOString() }
        })
        // in this transaction: a rolled-back close starts nothing (layers/Engine.ts)
        yield* WorkspaceCloseWorkflow.execute({ workspaceId: input.workspaceId, closesAtMs: closesAt.getTime() }, { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine),
          Effect.orDie
        )
        return yield* view(input.workspaceId, input.accountId)
      })

    /** The workspace as administrators see it, or `WorkspaceNotFound`. */
    const adminView = (workspaceId: string) =>
      Effect.flatMap(repo.adminView(workspaceId), Option.match({
        onNone: () => Effect.fail(new WorkspaceNotFound({ detail: `No workspace ${workspaceId}.` })),
        onSome: (w): Effect.Effect<AdminWorkspace> => Effect.succeed(w)
      }))

    /**
     * Workspaces_SuspendWorkspace / Workspaces_ResumeWorkspace (platform administrators):
     * ACTIVE → SUSPENDED with `reason`, SUSPENDED → ACTIVE (version + 1), audit
     * `workspace.suspended` / `workspace.resumed`. Fails with `WorkspaceNotFound`, or
     * `InvalidState` (`invalid-state`) from any other state.
     */
    const setSuspended = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly suspend: boolean
      readonly reason: string | undefined
    }) =>
      Effect.gen(function*() {
        const at = yield* now
        const done = input.suspend
          ? yield* repo.suspend(input.workspaceId, input.reason ?? "", at)
          : yield* repo.resume(input.workspaceId, at)
        const found = yield* adminView(input.workspaceId)
        if (!done) {
          return yield* new InvalidState({
            detail: input.suspend
              ? `The workspace is ${found.state}; only an ACTIVE workspace can be suspended.`
              : `The workspace is ${found.state}; only a SUSPENDED workspace can be resumed.`
          })
        }
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: input.suspend ? "workspace.suspended" : "workspace.resumed",
          target: { type: "workspace", id: input.workspaceId },
          details: { reason: input.reason ?? null, state: found.state }
        })
        return found
      })

    return { get, create, list, update, close, setSuspended }
  }),
  dependencies: [WorkspacesRepo.Default]
}) {}
