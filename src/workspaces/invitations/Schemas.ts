/** Request and response shapes of the invitation operations (spec §2.12, §4.3; ours where the spec is silent). */
import { Schema } from "effect"
import { Email, rule, StrictStruct, Uuid, Version, WireString } from "../../../schema/common.js"
import { WorkspaceMember } from "../../../schema/workspaces.js"

/** A role an invitation may grant: any but OWNER (ownership moves only by Workspaces_TransferOwnership). */
export const InvitableRole = Schema.Literal("ADMIN", "EDITOR", "OPERATOR", "ANALYST", "BILLING", "VIEWER").annotations({
  ...rule("must be one of ADMIN, EDITOR, OPERATOR, ANALYST, BILLING, VIEWER (never OWNER)")
})

/** Body of Workspaces_CreateInvitation: the address to invite (3-254 characters) and the role it grants. */
export const CreateInvitationRequest = StrictStruct({
  recipientEmail: WireString(3, 254).pipe(Schema.compose(Email), Schema.annotations(rule("must be an email address of 3-254 characters"))),
  role: InvitableRole
}).annotations({ identifier: "CreateInvitationRequest" })

/** Body of Workspaces_RevokeInvitation: the invitation's `version` the caller read. */
export const RevokeInvitationRequest = StrictStruct({ expectedVersion: Version })
  .annotations({ identifier: "RevokeInvitationRequest" })

/** Body of Workspaces_AcceptInvitation: the token of the invitation link (`#token=…`, 43 base64url characters). */
export const AcceptInvitationRequest = StrictStruct({ token: WireString(1, 200) })
  .annotations({ identifier: "AcceptInvitationRequest" })

/** What Workspaces_AcceptInvitation answers: the workspace joined and the caller's membership in it. */
export const AcceptedInvitation = Schema.Struct({
  workspacePublicId: Uuid,
  member: WorkspaceMember
}).annotations({ identifier: "AcceptedInvitation" })

