/**
 * Workspace invitations (spec §2.12, §4.3; ours where the spec is silent): an OWNER or ADMIN
 * (`members.manage`) invites an address with a role (never OWNER); the recipient gets a mail
 * with a link `${PUBLIC_BASE_URL}/invitations/accept#token=…`; the signed-in account with that
 * email (case-insensitive) accepts it and becomes an ACTIVE member.
 *
 * - The token is random (256 bits), stored only as its SHA-256, single-use.
 * - PENDING → EXPIRED after `INVITATION_TTL_DAYS` on the engine's durable clock
 *   (ExpiryWorkflow.ts, started in the creating transaction); a PENDING invitation past
 *   `expiresAt` is refused as expired even before that workflow has run.
 * - One PENDING invitation per address and workspace; none to an ACTIVE member's address.
 */
import { WorkflowEngine } from "@effect/workflow"
import { randomBytes } from "node:crypto"
import { Effect, Option } from "effect"
import { InvalidState, PolicyLocked } from "../../../schema/errors.js"
import type { WorkspaceInvitation } from "../../../schema/workspaces.js"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Audit } from "../../../layers/Audit.js"
import { tokenHash } from "../../../layers/Auth.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { Mail, throttleMail } from "../../../layers/Mail.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { WorkspaceSettings } from "../Config.js"
import { requireAccess } from "../members/Access.js"
import { MembersRepo } from "../members/Repo.js"
import { VersionConflict } from "../../../schema/errors.js"
import {
  AlreadyMember,
  InvitationExpired,
  InvitationForAnotherAccount,
  InvitationNotFound,
  InvitationNotPending,
  InvitationPending
} from "./Errors.js"
import { InvitationExpiryWorkflow } from "./ExpiryWorkflow.js"
import { InvitationsRepo } from "./Repo.js"

const dayMs = 86_400_000

/** Invitations of workspaces. Requires `SqlClient`, `Audit`, `Ids`, `AppConfig`, `WorkspaceSettings`, `WorkflowEngine`, `Mail`, `RateBudget`. */
export class Invitations extends Effect.Service<Invitations>()("agent-directory/Invitations", {
  effect: Effect.gen(function*() {
    const repo = yield* InvitationsRepo
    const members = yield* MembersRepo
    const audit = yield* Audit
    const ids = yield* Ids
    const config = yield* AppConfig
    const settings = yield* WorkspaceSettings
    const engine = yield* WorkflowEngine.WorkflowEngine
    const mail = yield* Mail

    const viewOf = (id: string) =>
      Effect.flatMap(repo.view(id), Effect.orDieWith(() => "invitation vanished in its transaction"))

    /**
     * Workspaces_CreateInvitation: a PENDING invitation to `recipientEmail` with `role`, its
     * expiry workflow started, its link mailed (after the writes; a mail that cannot be sent
     * rolls the invitation back: 503). Fails with the access refusals (404/423/409/403, see
     * members/Access.ts), `MailThrottled` (429), `AlreadyMember`, `InvitationPending`,
     * `DependencyUnavailable` (503, the mail server).
     */
    const create = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly recipientEmail: string
      readonly role: typeof WorkspaceInvitation.Type["role"]
    }) =>
      Effect.gen(function*() {
        yield* requireAccess(members, { ...input, permission: "members.manage", action: "Inviting members" })
        const email = input.recipientEmail.trim()
        yield* throttleMail(email)
        const at = yield* now
        for (const expiredId of yield* repo.expireOverdue(input.workspaceId, email, at)) {
          yield* audit.record({
            workspaceId: input.workspaceId,
            actorAccountId: null,
            action: "invitation.expired",
            target: { type: "invitation", id: expiredId }
          })
        }
        if (yield* repo.memberWithEmail(input.workspaceId, email)) {
          return yield* new AlreadyMember({ detail: "An active member of the workspace already has this email address." })
        }
        if (yield* repo.pendingTo(input.workspaceId, email)) {
          return yield* new InvitationPending({
            detail: "A pending invitation to this email address exists; revoke it before inviting again."
          })
        }
        const id = yield* ids.next
        const token = randomBytes(32).toString("base64url")
        const expiresAt = new Date(at.getTime() + settings.workspaces.invitationTtlDays * dayMs)
        yield* repo.insert({
          id,
          workspaceId: input.workspaceId,
          recipientEmail: email,
          role: input.role,
          invitedBy: input.accountId,
          tokenHash: tokenHash(token),
          expiresAt,
          at
        })
        // in this transaction: a rolled-back invitation starts no expiry (layers/Engine.ts)
        yield* InvitationExpiryWorkflow.execute({ invitationId: id, expiresAtMs: expiresAt.getTime() }, { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
        )
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "invitation.created",
          target: { type: "invitation", id },
          details: { role: input.role }
        })
        const invitation = yield* viewOf(id)
        const link = `${config.publicBaseUrl}/invitations/accept#token=${token}`
        yield* mail.send({
          to: email,
          subject: `${invitation.invitedBy.displayName} invited you to a workspace on Agent Directory`,
          text: `${invitation.invitedBy.displayName} invited you to join their workspace as ${input.role}.\n\n` +
            `Sign in (or sign up) with this email address, then open this link to accept:\n${link}\n\n` +
            `The invitation expires at ${invitation.expiresAt}. If you did not expect it, ignore this mail.\n`
        })
        return invitation
      }).pipe(dieOnStorageFailure)

    /**
     * Workspaces_RevokeInvitation: a PENDING invitation at `expectedVersion` → REVOKED. Fails with
     * the access refusals, `InvitationNotFound`, `InvitationNotPending` (accepted, revoked, or
     * expired: also a PENDING one past `expiresAt`), `VersionConflict`.
     */
    const revoke = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly invitationId: string
      readonly expectedVersion: number
    }) =>
      Effect.gen(function*() {
        yield* requireAccess(members, { ...input, permission: "members.manage", action: "Revoking invitations" })
        const found = yield* repo.find(input.workspaceId, input.invitationId)
        if (Option.isNone(found)) {
          return yield* new InvitationNotFound({ detail: `No invitation ${input.invitationId} in this workspace.` })
        }
        const invitation = found.value
        const at = yield* now
        const state = invitation.state === "PENDING" && invitation.expiresAt.getTime() <= at.getTime() ? "EXPIRED" : invitation.state
        if (state !== "PENDING") {
          return yield* new InvitationNotPending({ detail: `The invitation is ${state}; only a PENDING invitation can be revoked.` })
        }
        if (invitation.version !== input.expectedVersion || !(yield* repo.revoke(invitation.id, input.expectedVersion, at))) {
          return yield* new VersionConflict({ detail: "The invitation changed since it was read (expectedVersion is not its version); read it again." })
        }
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "invitation.revoked",
          target: { type: "invitation", id: invitation.id }
        })
        return yield* viewOf(invitation.id)
      }).pipe(dieOnStorageFailure)

    /**
     * Workspaces_AcceptInvitation: the signed-in account whose email is the invitation's
     * (case-insensitive) becomes an ACTIVE member with the invitation's role (a REVOKED
     * membership is made ACTIVE again); the invitation ACCEPTED. Fails with
     * `InvitationNotFound` (no invitation has this token), `InvitationForAnotherAccount` (403:
     * another address; nothing of it is told), `InvitationNotPending` (accepted or revoked),
     * `InvitationExpired` (410), `AlreadyMember`, `PolicyLocked`, `InvalidState` (the workspace
     * is not ACTIVE).
     */
    const accept = (input: { readonly accountId: string; readonly token: string }) =>
      Effect.gen(function*() {
        const found = yield* repo.byTokenHash(tokenHash(input.token))
        if (Option.isNone(found)) {
          return yield* new InvitationNotFound({ detail: "No invitation has this token; check the link or ask for a new invitation." })
        }
        const invitation = found.value
        const email = yield* repo.emailOf(input.accountId)
        if (invitation.recipientEmail === null || invitation.recipientEmail.toLowerCase() !== email.toLowerCase()) {
          return yield* new InvitationForAnotherAccount({
            detail: "This invitation was sent to another email address than your account's; sign in with the invited account."
          })
        }
        const at = yield* now
        if (invitation.state === "EXPIRED" || (invitation.state === "PENDING" && invitation.expiresAt.getTime() <= at.getTime())) {
          return yield* new InvitationExpired({ detail: "The invitation has expired; ask the workspace for a new one." })
        }
        if (invitation.state !== "PENDING") {
          return yield* new InvitationNotPending({
            detail: `The invitation was ${invitation.state === "ACCEPTED" ? "already accepted" : "revoked"}; it cannot be used.`
          })
        }
        const workspace = yield* members.workspaceStatus(invitation.workspaceId)
        if (workspace.locked) return yield* new PolicyLocked({ detail: "A policy lock holds this workspace; it cannot be joined now." })
        if (workspace.state !== "ACTIVE") {
          return yield* new InvalidState({ detail: `The workspace is ${workspace.state}; it cannot be joined.` })
        }
        if (!(yield* repo.join({ workspaceId: invitation.workspaceId, accountId: input.accountId, role: invitation.role, at }))) {
          return yield* new AlreadyMember({ detail: "You already are an active member of this workspace." })
        }
        yield* repo.accept(invitation.id, input.accountId, at)
        yield* audit.record({
          workspaceId: invitation.workspaceId,
          actorAccountId: input.accountId,
          action: "invitation.accepted",
          target: { type: "invitation", id: invitation.id },
          details: { role: invitation.role }
        })
        const member = yield* Effect.flatMap(
          members.member(invitation.workspaceId, input.accountId),
          Effect.orDieWith(() => "membership vanished in its transaction")
        )
        return { workspacePublicId: invitation.workspaceId, member }
      }).pipe(dieOnStorageFailure)

    return { create, revoke, accept }
  }),
  dependencies: [InvitationsRepo.Default, MembersRepo.Default]
}) {}
