/** Workspaces area contract (spec §4.3). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { GetWorkspaceQuery, Workspace } from "../../schema/workspaces.js"
import { operation } from "../api/operation.js"
import { InvalidCursor, PolicyLocked, WorkspaceNotFound } from "../../schema/errors.js"
import { acceptInvitation, createInvitation, revokeInvitation } from "./invitations/Api.js"
import { leaveWorkspace, removeMember, transferOwnership, updateMember } from "./members/Api.js"

export class WorkspacesApi extends HttpApiGroup.make("Workspaces")
  .add(
    HttpApiEndpoint.get("getWorkspace", "/api/v1/workspaces/:workspacePublicId")
      .setPath(Schema.Struct({ workspacePublicId: Uuid }))
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
            "the caller is not a member of is not found (its existence is not revealed); a policy lock answers 423.",
          errors: [WorkspaceNotFound, PolicyLocked, InvalidCursor]
        })
      )
  )
  .add(createInvitation)
  .add(revokeInvitation)
  .add(acceptInvitation)
  .add(updateMember)
  .add(removeMember)
  .add(transferOwnership)
  .add(leaveWorkspace)
  .annotate(OpenApi.Description, "Workspaces: members and invitations")
{}
