/**
 * The workspaces area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts). The lifecycle entries act on workspaces no
 * other area's demo request uses, so that they succeed in this order and in the order of
 * `/openapi.json`'s paths alike: the outsider's (update at version 1, then suspend and resume,
 * which need no version) and Frozen Holdings (closed by its owner at version 1).
 * The member and invitation examples run in
 * this order on Mel's Team (Mel Member owns it): invite, revoke the seeded invitation, Ada
 * Admin accepts hers, Mel changes Ada's role, removes Otto, hands the ownership to Ada, leaves.
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoAccounts } from "../accounts/seed.js"
import { DemoInvitationToken, DemoTeamInvitations, DemoWebhookSubscriptions, DemoWorkspaces } from "./seed.js"

const team = { workspacePublicId: DemoWorkspaces.team.id }

const outsiderLab = { workspacePublicId: DemoWorkspaces.outsider.id }

/** The workspaces area's demo requests, by operationId. */
export const WorkspacesManifest = {
  Workspaces_GetWorkspace: { as: "member", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: { limit: 50 }, body: null },
  Workspaces_CreateWorkspace: { as: "member", path: {}, query: {}, body: { name: "Mel's Side Project" } },
  Workspaces_ListWorkspaces: { as: "owner", path: {}, query: { limit: 25 }, body: null },
  Workspaces_UpdateWorkspace: { as: "outsider", path: outsiderLab, query: {}, body: { name: "Outsider Labs", expectedVersion: 1 } },
  Workspaces_SuspendWorkspace: {
    as: "admin",
    path: outsiderLab,
    query: {},
    body: { reason: "Suspected abuse reported; under review." }
  },
  Workspaces_ResumeWorkspace: { as: "admin", path: outsiderLab, query: {}, body: { reason: "Review finished: no abuse." } },
  Workspaces_CloseWorkspace: {
    as: "owner",
    path: { workspacePublicId: DemoWorkspaces.locked.id },
    query: {},
    body: { expectedVersion: 1 }
  },
  Workspaces_ListAuditEvents: { as: "owner", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: { limit: 20 }, body: null },
  Workspaces_CreateWebhookSubscription: {
    as: "owner",
    path: { workspacePublicId: DemoWorkspaces.acme.id },
    query: {},
    body: { url: "https://hooks.acme.example/agent-directory", eventKinds: ["order.*", "entitlement.active"], description: "Orders to the ERP" }
  },
  Workspaces_ListWebhookSubscriptions: { as: "owner", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: { limit: 20 }, body: null },
  Workspaces_ListWebhookDeliveries: {
    as: "owner",
    path: { workspacePublicId: DemoWorkspaces.acme.id, subscriptionId: DemoWebhookSubscriptions.erp.id },
    query: { limit: 20 },
    body: null
  },
  Workspaces_RotateWebhookSecret: {
    as: "owner",
    path: { workspacePublicId: DemoWorkspaces.acme.id, subscriptionId: DemoWebhookSubscriptions.erp.id },
    query: {},
    body: { expectedVersion: 1 }
  },
  Workspaces_DeleteWebhookSubscription: {
    as: "owner",
    path: { workspacePublicId: DemoWorkspaces.acme.id, subscriptionId: DemoWebhookSubscriptions.legacy.id },
    query: {},
    body: { expectedVersion: 1 }
  },
  Workspaces_CreateInvitation: {
    as: "member",
    path: team,
    query: {},
    body: { recipientEmail: "teammate@example.com", role: "EDITOR" },
    note: "Mel Member invites teammate@example.com to Mel's Team; the link goes by mail (the development outbox)."
  },
  Workspaces_RevokeInvitation: {
    as: "member",
    path: { ...team, invitationPublicId: DemoTeamInvitations[0].id },
    query: {},
    body: { expectedVersion: 1 }
  },
  Workspaces_AcceptInvitation: {
    as: "admin",
    path: {},
    query: {},
    body: { token: DemoInvitationToken },
    note: "Ada Admin accepts the seeded invitation to Mel's Team with its link's token."
  },
  Workspaces_UpdateMember: {
    as: "member",
    path: { ...team, accountPublicId: DemoAccounts.admin.id },
    query: {},
    body: { role: "ANALYST", expectedVersion: 1 }
  },
  Workspaces_RemoveMember: {
    as: "member",
    path: { ...team, accountPublicId: DemoAccounts.outsider.id },
    query: {},
    body: { expectedVersion: 1 }
  },
  Workspaces_TransferOwnership: {
    as: "member",
    path: team,
    query: {},
    body: { accountPublicId: DemoAccounts.admin.id, expectedVersion: 1 },
    note: "Mel Member hands Mel's Team to Ada Admin (who joined by the invitation example) and becomes ADMIN."
  },
  Workspaces_LeaveWorkspace: {
    as: "member",
    path: team,
    query: {},
    body: { expectedVersion: 2 },
    note: "Mel Member, ADMIN since the transfer example, leaves Mel's Team."
  }
} satisfies Record<string, ManifestOperation>
