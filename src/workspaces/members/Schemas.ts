/** Request and response shapes of the member and ownership operations (spec §2.12, §4.3; ours where the spec is silent). */
import { Schema } from "effect"
import { rule, StrictStruct, Uuid, Version } from "../../../schema/common.js"
import { WorkspaceMember } from "../../../schema/workspaces.js"

/** A role a member may be given by Workspaces_UpdateMember: any but OWNER. */
export const AssignableRole = Schema.Literal("ADMIN", "EDITOR", "OPERATOR", "ANALYST", "BILLING", "VIEWER").annotations({
  ...rule("must be one of ADMIN, EDITOR, OPERATOR, ANALYST, BILLING, VIEWER (never OWNER)")
})

/** Body of Workspaces_UpdateMember: the new role and the membership's `version` the caller read. */
export const UpdateMemberRequest = StrictStruct({ role: AssignableRole, expectedVersion: Version })
  .annotations({ identifier: "UpdateMemberRequest" })

/** Body of Workspaces_RemoveMember and Workspaces_LeaveWorkspace: the membership's `version` the caller read. */
export const MemberVersionRequest = StrictStruct({ expectedVersion: Version })
  .annotations({ identifier: "MemberVersionRequest" })

/** Body of Workspaces_TransferOwnership: the ACTIVE member to hand over to and the workspace's `version` the caller read. */
export const TransferOwnershipRequest = StrictStruct({ accountPublicId: Uuid, expectedVersion: Version })
  .annotations({ identifier: "TransferOwnershipRequest" })

/** What Workspaces_TransferOwnership answers: the workspace's new version, the new owner and the previous one (now ADMIN). */
export const OwnershipTransfer = Schema.Struct({
  workspacePublicId: Uuid,
  version: Version,
  owner: WorkspaceMember,
  previousOwner: WorkspaceMember
}).annotations({ identifier: "OwnershipTransfer" })
