/**
 * The member and ownership operations of the Workspaces group: Workspaces_UpdateMember,
 * Workspaces_RemoveMember, Workspaces_LeaveWorkspace and Workspaces_TransferOwnership, added to
 * `WorkspacesApi`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { InvalidState, PolicyLocked, RoleRequired, VersionConflict, WorkspaceNotFound } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { WorkspaceMember } from "../../../schema/workspaces.js"
import { operation } from "../../api/operation.js"
import { MemberNotFound, OwnerFixed } from "./Errors.js"
import { MemberVersionRequest, OwnershipTransfer, TransferOwnershipRequest, UpdateMemberRequest } from "./Schemas.js"

const MemberPath = Schema.Struct({ workspacePublicId: Uuid, accountPublicId: Uuid })
const WorkspacePath = Schema.Struct({ workspacePublicId: Uuid })

/** What every member and invitation command asks of the caller and the workspace first (its description's words). */
export const access = "The caller must be an ACTIVE member (else 404 `workspace-not-found`: existence is not revealed); a " +
  "policy lock answers 423, a workspace that is not ACTIVE 409 `invalid-state`."

const admins = "Only the OWNER changes or removes an ADMIN: an ADMIN acts on the members below ADMIN and on itself " +
  "(another ADMIN: 403 `role-required`)."

/** PATCH /api/v1/workspaces/{workspacePublicId}/members/{accountPublicId}. */
export const updateMember = HttpApiEndpoint.patch("updateMember", "/api/v1/workspaces/:workspacePublicId/members/:accountPublicId")
  .setPath(MemberPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(UpdateMemberRequest)
  .addSuccess(Data(WorkspaceMember))
  .pipe(
    operation({
      id: "Workspaces_UpdateMember",
      permission: "members.manage",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 423, 500],
      summary: "Change a member's role at the version you read",
      description: "Gives the ACTIVE member `role` (ADMIN, EDITOR, OPERATOR, ANALYST, BILLING or VIEWER; never OWNER) " +
        "and answers the membership (`version` + 1; the same role again changes nothing). Body: `expectedVersion`, the " +
        "membership's `version` the caller read (any other: 409 `version-conflict`). " + access +
        " " + admins + " The owner's role never changes here (409 `owner-fixed`: Workspaces_TransferOwnership moves " +
        "ownership); an account that is not an ACTIVE member is 404 `member-not-found`.",
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, MemberNotFound, OwnerFixed, VersionConflict]
    })
  )

/** DELETE /api/v1/workspaces/{workspacePublicId}/members/{accountPublicId}. */
export const removeMember = HttpApiEndpoint.del("removeMember", "/api/v1/workspaces/:workspacePublicId/members/:accountPublicId")
  .setPath(MemberPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(MemberVersionRequest)
  .addSuccess(Data(WorkspaceMember))
  .pipe(
    operation({
      id: "Workspaces_RemoveMember",
      permission: "members.manage",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 423, 500],
      summary: "Remove a member: their access ends at once",
      description: "The membership becomes REVOKED (answered, `version` + 1): every check is by ACTIVE membership, so " +
        "the person's sessions see the workspace as not found from the next request on, and the API keys they created " +
        "for the workspace are revoked. They can come back only by a new invitation. Body: `expectedVersion`, the " +
        "membership's `version` the caller read (any other: 409 `version-conflict`). " +
        access + " " + admins + " The owner cannot be removed (409 `owner-fixed`); an " +
        "account that is not an ACTIVE member is 404 `member-not-found`.",
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, MemberNotFound, OwnerFixed, VersionConflict]
    })
  )

/** POST /api/v1/workspaces/{workspacePublicId}/leave. */
export const leaveWorkspace = HttpApiEndpoint.post("leaveWorkspace", "/api/v1/workspaces/:workspacePublicId/leave")
  .setPath(WorkspacePath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(MemberVersionRequest)
  .addSuccess(Data(WorkspaceMember))
  .pipe(
    operation({
      id: "Workspaces_LeaveWorkspace",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 404, 409, 423, 500],
      summary: "Leave a workspace",
      description: "The caller's own membership becomes REVOKED (answered, `version` + 1) and the API keys the caller " +
        "created for the workspace are revoked; the workspace is not found for the caller from then on. Body: " +
        "`expectedVersion`, the caller's membership `version` (any other: 409 `version-conflict`). " + access +
        " The owner cannot leave (409 `owner-fixed`): transfer the ownership first.",
      errors: [WorkspaceNotFound, PolicyLocked, InvalidState, OwnerFixed, VersionConflict]
    })
  )

/** POST /api/v1/workspaces/{workspacePublicId}/ownership. */
export const transferOwnership = HttpApiEndpoint.post("transferOwnership", "/api/v1/workspaces/:workspacePublicId/ownership")
  .setPath(WorkspacePath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(TransferOwnershipRequest)
  .addSuccess(Data(OwnershipTransfer))
  .pipe(
    operation({
      id: "Workspaces_TransferOwnership",
      permission: "workspace.transferOwnership",
      auth: "required-user",
      cache: "none",
      sensitive: true,
      statuses: [400, 401, 403, 404, 409, 423, 500],
      summary: "Hand the ownership to another active member",
      description: "The ACTIVE member `accountPublicId` becomes the OWNER and the caller, the owner until now, an ADMIN, " +
        "in one step: the workspace always has exactly one owner. Answers both memberships and the workspace's new " +
        "`version`. Body: `expectedVersion`, the workspace's `version` the caller read (any other, e.g. after a " +
        "concurrent transfer: 409 `version-conflict`). A sensitive action (spec §5.2): it needs a recent sign-in or MFA " +
        "step-up (403 `reauthentication-required`). " + access + " An account that is not an ACTIVE " +
        "member is 404 `member-not-found`; the caller itself 409 `owner-fixed`.",
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, MemberNotFound, OwnerFixed, VersionConflict]
    })
  )
