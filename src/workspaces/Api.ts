/**
 * Workspaces area contract (spec §2.12, §3 Workspace states, §4.3): reading a workspace
 * (Workspaces_GetWorkspace, in the spec), and our extensions for its lifecycle: create, list,
 * update, close (its members), suspend and resume (platform administrators).
 */
import {
  createWebhookSubscription,
  deleteWebhookSubscription,
  listWebhookDeliveries,
  listWebhookSubscriptions,
  rotateWebhookSecret
} from "./webhooks/Api.js"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data, Page } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import {
  AdminWorkspace,
  CloseWorkspaceRequest,
  CreateWorkspaceRequest,
  GetWorkspaceQuery,
  ListWorkspacesQuery,
  ResumeWorkspaceRequest,
  SuspendWorkspaceRequest,
  UpdateWorkspaceRequest,
  Workspace,
  WorkspaceSummary
} from "../../schema/workspaces.js"
import { LocationOf } from "../api/location.js"
import { operation } from "../api/operation.js"
import {
  Conflict,
  InvalidCursor,
  InvalidState,
  PolicyLocked,
  RoleRequired,
  VersionConflict,
  WorkspaceNotFound
} from "../../schema/errors.js"
import { SlugTaken, WorkspaceLimitReached, WorkspaceNotActive } from "./Errors.js"

const WorkspacePath = Schema.Struct({ workspacePublicId: Uuid })

/** The `Location` of a created workspace. */
const workspacePath = (body: unknown): string | undefined => {
  const id = (body as { readonly data?: { readonly publicId?: unknown } } | null)?.data?.publicId
  return typeof id === "string" ? `/api/v1/workspaces/${id}` : undefined
}

const states = "States (spec §3): ACTIVE ↔ SUSPENDED (platform administrators), ACTIVE → CLOSING → CLOSED (the " +
  "owner closes; CLOSED after the grace period `WORKSPACE_CLOSE_GRACE_HOURS`). Only an ACTIVE workspace can be " +
  "changed (409 `workspace-not-active`); a CLOSED one stays readable as history; a SUSPENDED one answers 423 " +
  "`policy-locked` to reads."

const refusals = "Refusals come in this order: 404 (no such workspace, or the caller is not an active member: its " +
  "existence is not revealed), 403 `role-required`, 409 `version-conflict` (`expectedVersion` is not the current " +
  "version), 409 `workspace-not-active`."
import { listAuditEvents } from "./audit/Api.js"
import { acceptInvitation, createInvitation, revokeInvitation } from "./invitations/Api.js"
import { leaveWorkspace, removeMember, transferOwnership, updateMember } from "./members/Api.js"

export class WorkspacesApi extends HttpApiGroup.make("Workspaces")
  .add(
    HttpApiEndpoint.get("getWorkspace", "/api/v1/workspaces/:workspacePublicId")
      .setPath(WorkspacePath)
      .setUrlParams(GetWorkspaceQuery)
      .addSuccess(Data(Workspace))
      .pipe(
        operation({
          id: "Workspaces_GetWorkspace",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 409, 423, 500],
          summary: "A workspace the caller belongs to, with one page of members and of invitations",
          description: "A workspace the caller is an active member of, with one page (`limit`, 1-100, default 50) of " +
            "members and one of invitations; `membersCursor` and `invitationsCursor` fetch the next pages. A workspace " +
            "the caller is not a member of is not found (its existence is not revealed); a SUSPENDED workspace, or one " +
            "a policy lock holds, answers 423. CLOSING and CLOSED workspaces stay readable.",
          errors: [WorkspaceNotFound, PolicyLocked, InvalidCursor]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createWorkspace", "/api/v1/workspaces")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateWorkspaceRequest)
      .addSuccess(Data(Workspace), { status: 201 })
      .annotate(LocationOf, workspacePath)
      .pipe(
        operation({
          id: "Workspaces_CreateWorkspace",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 409, 500],
          summary: "Create a workspace; the caller becomes its owner",
          description: "Extension of ours (not in the spec). Creates an ACTIVE workspace (version 1) and answers 201 " +
            "with it as Workspaces_GetWorkspace shows it, its URL in `Location`. `name`: 2-100 characters (stored " +
            "trimmed). `slug` (optional): 3-63 of `a-z`, `0-9` and `-`, starting and ending with a letter or digit, " +
            "unique among all workspaces (taken: 409 `slug-taken`); without it the slug is derived from the name " +
            "(lower case ASCII letters and digits, other runs of characters become `-`; `-2`, `-3`, … when taken). " +
            "The caller is its ACTIVE OWNER member (`isWorkspaceOwner`); the caller's first workspace becomes the " +
            "default (`isDefault`). One account may own at most 20 workspaces that are not CLOSED (409 " +
            "`workspace-limit-reached`).",
          errors: [SlugTaken, WorkspaceLimitReached]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listWorkspaces", "/api/v1/workspaces")
      .setUrlParams(ListWorkspacesQuery)
      .addSuccess(Page(WorkspaceSummary))
      .pipe(
        operation({
          id: "Workspaces_ListWorkspaces",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 500],
          summary: "The caller's workspaces with the caller's role, default first",
          description: "Extension of ours (not in the spec). The workspaces the caller is an active member of, in any " +
            "state, each with the caller's `role` and `isDefault`: the default first, then by name (byte order) and " +
            "id. `limit` 1-100 (default 25); `nextCursor` is a signed cursor for `cursor` (bound to the caller).",
          errors: [InvalidCursor]
        })
      )
  )
  .add(
    HttpApiEndpoint.patch("updateWorkspace", "/api/v1/workspaces/:workspacePublicId")
      .setPath(WorkspacePath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(UpdateWorkspaceRequest)
      .addSuccess(Data(Workspace))
      .pipe(
        operation({
          id: "Workspaces_UpdateWorkspace",
          permission: "workspace.update",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500],
          summary: "Rename a workspace or change its slug",
          description: "Extension of ours (not in the spec). Changes `name` and/or `slug` (same rules as at creation; a " +
            "slug of another workspace is 409 `slug-taken`) at `expectedVersion`; answers the workspace (version + 1). " +
            refusals + " " + states,
          errors: [WorkspaceNotFound, RoleRequired, VersionConflict, WorkspaceNotActive, SlugTaken, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("closeWorkspace", "/api/v1/workspaces/:workspacePublicId/close")
      .setPath(WorkspacePath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CloseWorkspaceRequest)
      .addSuccess(Data(Workspace))
      .pipe(
        operation({
          id: "Workspaces_CloseWorkspace",
          permission: "workspace.close",
          auth: "required-user",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500],
          summary: "Close a workspace: CLOSING at once, CLOSED after the grace period",
          description: "Extension of ours (not in the spec). At `expectedVersion`, ACTIVE → CLOSING (version + 1) at " +
            "once: every API key of the workspace is revoked (a revoked key gets the one 401 of every bad key) and " +
            "every schedule of its agents stopped. After `WORKSPACE_CLOSE_GRACE_HOURS` (default 168) the durable " +
            "engine makes it CLOSED, read-only history. Needs a recent sign-in or second-factor step-up (sensitive action). " +
            refusals,
          errors: [WorkspaceNotFound, RoleRequired, VersionConflict, WorkspaceNotActive, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("suspendWorkspace", "/api/v1/admin/workspaces/:workspacePublicId/suspend")
      .setPath(WorkspacePath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(SuspendWorkspaceRequest)
      .addSuccess(Data(AdminWorkspace))
      .pipe(
        operation({
          id: "Workspaces_SuspendWorkspace",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500],
          summary: "Suspend a workspace (admin)",
          description: "Extension of ours (not in the spec). ACTIVE → SUSPENDED (version + 1), with `reason` (3-1000 " +
            "characters) kept in the audit trail. A suspended workspace answers 423 `policy-locked` to " +
            "Workspaces_GetWorkspace and cannot be changed. From any other state: 409 `invalid-state`.",
          errors: [WorkspaceNotFound, InvalidState]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("resumeWorkspace", "/api/v1/admin/workspaces/:workspacePublicId/resume")
      .setPath(WorkspacePath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(ResumeWorkspaceRequest)
      .addSuccess(Data(AdminWorkspace))
      .pipe(
        operation({
          id: "Workspaces_ResumeWorkspace",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500],
          summary: "Resume a suspended workspace (admin)",
          description: "Extension of ours (not in the spec). SUSPENDED → ACTIVE (version + 1); `reason` (optional, " +
            "3-1000 characters) is kept in the audit trail. From any other state: 409 `invalid-state`.",
          errors: [WorkspaceNotFound, InvalidState]
        })
      )
  )
  .add(listAuditEvents)
  .add(createWebhookSubscription)
  .add(listWebhookSubscriptions)
  .add(deleteWebhookSubscription)
  .add(rotateWebhookSecret)
  .add(listWebhookDeliveries)
  .add(createInvitation)
  .add(revokeInvitation)
  .add(acceptInvitation)
  .add(updateMember)
  .add(removeMember)
  .add(transferOwnership)
  .add(leaveWorkspace)
  .annotate(OpenApi.Description, "Workspaces: their lifecycle, members and invitations")
{}
