/** Workspaces area (spec §2.12, §4.3): workspaces with members and invitations. */
import { Schema } from "effect"
import { DateTimeZ, Email, QueryInt, rule, StrictStruct, Uuid, Version, WireString } from "./common.js"

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

/**
 * A workspace in the caller's list (Workspaces_ListWorkspaces): the header of
 * {@link Workspace} (same fields, same meaning) without the member and invitation pages.
 */
export const WorkspaceSummary = Workspace.omit("members", "invitations", "membersNextCursor", "invitationsNextCursor")
  .annotations({ identifier: "WorkspaceSummary" })
export type WorkspaceSummary = typeof WorkspaceSummary.Type

/** A workspace name: 2-100 characters, not only white space (stored trimmed). */
export const WorkspaceName = WireString(2, 100).pipe(
  Schema.filter((s) => s.trim().length >= 2),
  Schema.annotations({
    ...rule("must be a string of 2-100 characters (at least 2 besides white space) without U+0000"),
    description: "2-100 characters, at least 2 besides white space; stored trimmed"
  })
)

/** The slug's rule: 3-63 of a-z, 0-9 and `-`, starting and ending with a letter or digit. */
export const SlugPattern = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/

/** A workspace slug (unique among all workspaces). */
export const WorkspaceSlug = Schema.String.pipe(
  Schema.pattern(SlugPattern),
  Schema.annotations({
    ...rule("must be 3-63 characters of a-z, 0-9 and -, starting and ending with a letter or digit"),
    description: "3-63 characters of a-z, 0-9 and -, starting and ending with a letter or digit; unique"
  })
)

/** Body of Workspaces_CreateWorkspace: a name and, optionally, a slug (else derived from the name). */
export const CreateWorkspaceRequest = StrictStruct({
  name: WorkspaceName,
  slug: Schema.optionalWith(WorkspaceSlug, { exact: true })
})
export type CreateWorkspaceRequest = typeof CreateWorkspaceRequest.Type

/** Body of Workspaces_UpdateWorkspace: a new name and/or slug, at the version the caller read. */
export const UpdateWorkspaceRequest = StrictStruct({
  name: Schema.optionalWith(WorkspaceName, { exact: true }),
  slug: Schema.optionalWith(WorkspaceSlug, { exact: true }),
  expectedVersion: Version
})
export type UpdateWorkspaceRequest = typeof UpdateWorkspaceRequest.Type

/** Body of Workspaces_CloseWorkspace: the version the caller read. */
export const CloseWorkspaceRequest = StrictStruct({ expectedVersion: Version })

/** Body of Workspaces_SuspendWorkspace: why (kept in the audit trail; 3-1000 characters). */
export const SuspendWorkspaceRequest = StrictStruct({ reason: WireString(3, 1000) })

/** Body of Workspaces_ResumeWorkspace: optionally why (3-1000 characters). */
export const ResumeWorkspaceRequest = StrictStruct({ reason: Schema.optionalWith(WireString(3, 1000), { exact: true }) })

/** Query of Workspaces_ListWorkspaces: limit 1-100 (default 25), signed cursor (max 4096). */
export const ListWorkspacesQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  cursor: Schema.optionalWith(WireString(1, 4096), { exact: true })
})

/**
 * A workspace as the platform's administrators see it (Workspaces_SuspendWorkspace,
 * Workspaces_ResumeWorkspace): the fields of {@link Workspace} that do not depend on the
 * caller being a member.
 */
export const AdminWorkspace = Schema.Struct({
  publicId: Uuid,
  name: Schema.String,
  slug: Schema.String,
  state: Workspace.fields.state,
  memberCount: Schema.Int.pipe(Schema.nonNegative()),
  version: Version,
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "AdminWorkspace" })
export type AdminWorkspace = typeof AdminWorkspace.Type
