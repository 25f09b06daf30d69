/** Workspaces area (spec §2.12, §4.3): workspaces with members and invitations. */
import { Schema } from "effect"
import { DateTimeZ, Email, QueryInt, Uuid, Version, WireString } from "./common.js"

/** Workspace roles, most to least privileged. */
export const WorkspaceRole = Schema.Literal("OWNER", "ADMIN", "EDITOR", "OPERATOR", "ANALYST", "BILLING", "VIEWER")
export type WorkspaceRole = typeof WorkspaceRole.Type

/** A member of a workspace. */
export const WorkspaceMember = Schema.Struct({
  accountPublicId: Uuid,
  displayName: Schema.String,
  email: Email,
  role: WorkspaceRole,
  state: Schema.Literal("INVITED", "ACTIVE", "REVOKED"),
  isWorkspaceOwner: Schema.Boolean,
  acceptedAt: Schema.NullOr(DateTimeZ),
  revokedAt: Schema.NullOr(DateTimeZ),
  version: Version,
  createdAt: DateTimeZ
}).annotations({ identifier: "WorkspaceMember" })

/** An invitation to a workspace. */
export const WorkspaceInvitation = Schema.Struct({
  publicId: Uuid,
  recipientEmail: Schema.NullOr(Email),
  role: WorkspaceRole,
  state: Schema.Literal("PENDING", "ACCEPTED", "EXPIRED", "REVOKED"),
  invitedBy: Schema.Struct({ publicId: Uuid, displayName: Schema.String }),
  acceptedByAccountPublicId: Schema.NullOr(Uuid),
  expiresAt: DateTimeZ,
  acceptedAt: Schema.NullOr(DateTimeZ),
  revokedAt: Schema.NullOr(DateTimeZ),
  version: Version,
  createdAt: DateTimeZ
}).annotations({ identifier: "WorkspaceInvitation" })

/**
 * Workspace (spec §2.12) as seen by one caller: `role` is the caller's role; members
 * and invitations are each one page, continued with their own cursor.
 */
export const Workspace = Schema.Struct({
  publicId: Uuid,
  name: Schema.String,
  slug: Schema.String,
  state: Schema.Literal("ACTIVE", "SUSPENDED", "CLOSING", "CLOSED"),
  role: WorkspaceRole,
  isDefault: Schema.Boolean,
  memberCount: Schema.Int.pipe(Schema.nonNegative()),
  version: Version,
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ,
  members: Schema.Array(WorkspaceMember),
  invitations: Schema.Array(WorkspaceInvitation),
  membersNextCursor: Schema.NullOr(Schema.String),
  invitationsNextCursor: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Workspace" })
export type Workspace = typeof Workspace.Type

/** Query of Workspaces_GetWorkspace: limit 1-100 (default 50), one cursor per list (max 4096). */
export const GetWorkspaceQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 50 }),
  membersCursor: Schema.optionalWith(WireString(1, 4096), { exact: true }),
  invitationsCursor: Schema.optionalWith(WireString(1, 4096), { exact: true })
})
