/**
 * The invitation operations of the Workspaces group: Workspaces_CreateInvitation,
 * Workspaces_RevokeInvitation and Workspaces_AcceptInvitation, added to `WorkspacesApi`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import {
  DependencyUnavailable,
  InvalidState,
  MailThrottled,
  PolicyLocked,
  RoleRequired,
  VersionConflict,
  WorkspaceNotFound
} from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { WorkspaceInvitation } from "../../../schema/workspaces.js"
import { operation } from "../../api/operation.js"
import { access } from "../members/Api.js"
import {
  AlreadyMember,
  InvitationExpired,
  InvitationForAnotherAccount,
  InvitationNotFound,
  InvitationNotPending,
  InvitationPending
} from "./Errors.js"
import { AcceptedInvitation, AcceptInvitationRequest, CreateInvitationRequest, RevokeInvitationRequest } from "./Schemas.js"

/** POST /api/v1/workspaces/{workspacePublicId}/invitations. */
export const createInvitation = HttpApiEndpoint.post("createInvitation", "/api/v1/workspaces/:workspacePublicId/invitations")
  .setPath(Schema.Struct({ workspacePublicId: Uuid }))
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(CreateInvitationRequest)
  .addSuccess(Data(WorkspaceInvitation), { status: 201 })
  .pipe(
    operation({
      id: "Workspaces_CreateInvitation",
      permission: "members.manage",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 423, 429, 500, 503],
      summary: "Invite an email address to the workspace with a role",
      description: "Creates a PENDING invitation of `recipientEmail` with `role` (any role but OWNER: ownership moves " +
        "only by Workspaces_TransferOwnership) and mails the recipient a link `<PUBLIC_BASE_URL>/invitations/accept#token=…` " +
        "(the token is in the fragment, so it never reaches a server log; the service stores only its SHA-256). The " +
        "invitation expires after `INVITATION_TTL_DAYS` (default 14; `expiresAt`). " + access + " An ACTIVE member " +
        "with that address is 409 `already-member`; a PENDING invitation to the same address (case-insensitive) is 409 " +
        "`invitation-pending` (revoke it first). Mails per recipient and per client are budgeted (429 `mail-throttled`); " +
        "a mail server that refuses the message is 503 and no invitation is created.",
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, AlreadyMember, InvitationPending, MailThrottled, DependencyUnavailable]
    })
  )

/** DELETE /api/v1/workspaces/{workspacePublicId}/invitations/{invitationPublicId}. */
export const revokeInvitation = HttpApiEndpoint.del(
  "revokeInvitation",
  "/api/v1/workspaces/:workspacePublicId/invitations/:invitationPublicId"
)
  .setPath(Schema.Struct({ workspacePublicId: Uuid, invitationPublicId: Uuid }))
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(RevokeInvitationRequest)
  .addSuccess(Data(WorkspaceInvitation))
  .pipe(
    operation({
      id: "Workspaces_RevokeInvitation",
      permission: "members.manage",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 423, 500],
      summary: "Revoke a pending invitation at the version you read",
      description: "PENDING → REVOKED: its link no longer works. Body: `expectedVersion`, the invitation's `version` " +
        "the caller read (any other: 409 `version-conflict`). " + access + " An unknown invitation is 404 " +
        "`invitation-not-found`; one already accepted, revoked or expired (also a PENDING one past `expiresAt`) is 409 " +
        "`invitation-not-pending`.",
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, InvitationNotFound, InvitationNotPending, VersionConflict]
    })
  )

/** POST /api/v1/invitations/accept. */
export const acceptInvitation = HttpApiEndpoint.post("acceptInvitation", "/api/v1/invitations/accept")
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(AcceptInvitationRequest)
  .addSuccess(Data(AcceptedInvitation))
  .pipe(
    operation({
      id: "Workspaces_AcceptInvitation",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 410, 423, 500],
      summary: "Accept an invitation with the token of its link",
      description: "The signed-in account whose email is the invitation's (compared case-insensitively) becomes an " +
        "ACTIVE member of the workspace with the invitation's role (a membership it had and lost is made ACTIVE again), " +
        "and the invitation is ACCEPTED; answers the workspace and the new membership. Someone without an account signs " +
        "up with the invited address first. `token` is the `token` of the link's fragment. Refusals tell nothing of " +
        "other accounts: no invitation with this token is 404 `invitation-not-found`; an invitation sent to another " +
        "address is 403 `invitation-for-another-account`; an expired one 410 `invitation-expired`; one already accepted " +
        "or revoked 409 `invitation-not-pending`; an ACTIVE member already is 409 `already-member`; a workspace under a " +
        "policy lock 423, one not ACTIVE 409 `invalid-state`.",
      errors: [InvitationNotFound, InvitationForAnotherAccount, InvitationExpired, InvitationNotPending, AlreadyMember, PolicyLocked, InvalidState]
    })
  )
