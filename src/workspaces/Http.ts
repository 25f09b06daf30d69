/** HTTP handlers of the Workspaces area. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { Workspaces } from "./Workspaces.js"
import { AuditEvents } from "./audit/AuditEvents.js"
import { Invitations } from "./invitations/Invitations.js"
import { Members } from "./members/Members.js"
import { Webhooks } from "./webhooks/Webhooks.js"
import { group } from "../http/group.js"

export const WorkspacesHttpLive = group(Api, "Workspaces", (handlers) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    const envelope = yield* Envelope
    const invitations = yield* Invitations
    const members = yield* Members
    const auditEvents = yield* AuditEvents
    const webhooks = yield* Webhooks
    return handlers
      .handle("getWorkspace", ({ path, urlParams }) =>
        currentSession.pipe(
          Effect.flatMap((session) =>
            workspaces.get({
              workspaceId: path.workspacePublicId,
              accountId: session.accountId,
              limit: urlParams.limit,
              membersCursor: urlParams.membersCursor,
              invitationsCursor: urlParams.invitationsCursor
            })
          ),
          Effect.flatMap(envelope.data)
        ))
      .handle("createWorkspace", ({ payload }) =>
        Effect.flatMap(currentSession, (s) => workspaces.create({ accountId: s.accountId, body: payload })).pipe(
          Effect.flatMap(envelope.data)
        ))
      .handle("listWorkspaces", ({ urlParams }) =>
        Effect.flatMap(currentSession, (s) =>
          workspaces.list({ accountId: s.accountId, limit: urlParams.limit, cursor: urlParams.cursor })).pipe(
            Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
          ))
      .handle("updateWorkspace", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          workspaces.update({ workspaceId: path.workspacePublicId.toLowerCase(), accountId: s.accountId, body: payload }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("closeWorkspace", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          workspaces.close({
            workspaceId: path.workspacePublicId.toLowerCase(),
            accountId: s.accountId,
            expectedVersion: payload.expectedVersion
          })).pipe(Effect.flatMap(envelope.data)))
      .handle("suspendWorkspace", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          workspaces.setSuspended({
            workspaceId: path.workspacePublicId.toLowerCase(),
            accountId: s.accountId,
            suspend: true,
            reason: payload.reason
          })).pipe(Effect.flatMap(envelope.data)))
      .handle("resumeWorkspace", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          workspaces.setSuspended({
            workspaceId: path.workspacePublicId.toLowerCase(),
            accountId: s.accountId,
            suspend: false,
            reason: payload.reason
          })).pipe(Effect.flatMap(envelope.data)))
      .handle("listAuditEvents", ({ path, urlParams }) =>
        currentSession.pipe(
          Effect.flatMap((session) =>
            auditEvents.list({ workspaceId: path.workspacePublicId, accountId: session.accountId, ...urlParams })
          ),
          Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
        ))
      .handle("createWebhookSubscription", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          webhooks.create({ workspaceId: path.workspacePublicId.toLowerCase(), accountId: s.accountId, body: payload }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("listWebhookSubscriptions", ({ path, urlParams }) =>
        Effect.flatMap(currentSession, (s) =>
          webhooks.list({ workspaceId: path.workspacePublicId.toLowerCase(), accountId: s.accountId, ...urlParams }))
          .pipe(Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))))
      .handle("deleteWebhookSubscription", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          webhooks.remove({
            workspaceId: path.workspacePublicId.toLowerCase(),
            subscriptionId: path.subscriptionId.toLowerCase(),
            accountId: s.accountId,
            expectedVersion: payload.expectedVersion
          })).pipe(Effect.flatMap(envelope.data)))
      .handle("rotateWebhookSecret", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          webhooks.rotate({
            workspaceId: path.workspacePublicId.toLowerCase(),
            subscriptionId: path.subscriptionId.toLowerCase(),
            accountId: s.accountId,
            expectedVersion: payload.expectedVersion
          })).pipe(Effect.flatMap(envelope.data)))
      .handle("listWebhookDeliveries", ({ path, urlParams }) =>
        Effect.flatMap(currentSession, (s) =>
          webhooks.deliveries({
            workspaceId: path.workspacePublicId.toLowerCase(),
            subscriptionId: path.subscriptionId.toLowerCase(),
            accountId: s.accountId,
            ...urlParams
          })).pipe(Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))))
      .handle("createInvitation", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          invitations.create({ workspaceId: path.workspacePublicId, accountId: s.accountId, ...payload }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("revokeInvitation", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          invitations.revoke({
            workspaceId: path.workspacePublicId,
            invitationId: path.invitationPublicId,
            accountId: s.accountId,
            expectedVersion: payload.expectedVersion
          })).pipe(Effect.flatMap(envelope.data)))
      .handle("acceptInvitation", ({ payload }) =>
        Effect.flatMap(currentSession, (s) => invitations.accept({ accountId: s.accountId, token: payload.token }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("updateMember", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          members.update({
            workspaceId: path.workspacePublicId,
            memberId: path.accountPublicId,
            accountId: s.accountId,
            ...payload
          })).pipe(Effect.flatMap(envelope.data)))
      .handle("removeMember", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          members.remove({
            workspaceId: path.workspacePublicId,
            memberId: path.accountPublicId,
            accountId: s.accountId,
            expectedVersion: payload.expectedVersion
          })).pipe(Effect.flatMap(envelope.data)))
      .handle("leaveWorkspace", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          members.leave({ workspaceId: path.workspacePublicId, accountId: s.accountId, expectedVersion: payload.expectedVersion }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("transferOwnership", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          members.transfer({
            workspaceId: path.workspacePublicId,
            newOwnerId: payload.accountPublicId,
            accountId: s.accountId,
            expectedVersion: payload.expectedVersion
          })).pipe(Effect.flatMap(envelope.data)))
  }))
