/** HTTP handlers of the Workspaces area. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { Workspaces } from "./Workspaces.js"
import { AuditEvents } from "./audit/AuditEvents.js"
import { group } from "../http/group.js"

export const WorkspacesHttpLive = group(Api, "Workspaces", (handlers) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    const envelope = yield* Envelope
    const auditEvents = yield* AuditEvents
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
  }))
