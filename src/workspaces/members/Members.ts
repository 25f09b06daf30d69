/**
 * Workspace members and ownership (spec §2.12, §4.3, §5.2; ours where the spec is silent):
 * role changes, removal, leaving and the ownership transfer. Every check is by ACTIVE
 * membership, so a REVOKED member loses access to the workspace at once.
 *
 * Rules:
 * - Roles change only between ADMIN..VIEWER: never to or from OWNER (the transfer does that).
 * - Only the OWNER changes or removes an ADMIN: an ADMIN may change and remove the members
 *   below ADMIN (and promote them to ADMIN), and change or remove only itself among the ADMINs.
 * - The owner cannot be removed and cannot leave (409 `owner-fixed`): transfer first.
 * - A member who is removed or leaves is REVOKED and the API keys they created for the
 *   workspace are revoked with them.
 * - The workspace always has exactly one owner: the transfer, at the workspace's version, makes
 *   the old owner ADMIN and the new one OWNER in one transaction (a partial unique index holds it).
 */
import { Effect, Option } from "effect"
import { RoleRequired, VersionConflict } from "../../../schema/errors.js"
import type { WorkspaceMember as Member } from "../../../schema/workspaces.js"
type WorkspaceMember = typeof Member.Type
import { Audit } from "../../../layers/Audit.js"
import { now } from "../../../layers/Clock.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { requireAccess } from "./Access.js"
import { MemberNotFound, OwnerFixed } from "./Errors.js"
import { MembersRepo } from "./Repo.js"

const versionConflict = (what: string) =>
  new VersionConflict({ detail: `The ${what} changed since it was read (expectedVersion is not its version); read it again.` })

/** Members of workspaces. Requires `SqlClient`, `Audit`. */
export class Members extends Effect.Service<Members>()("agent-directory/Members", {
  effect: Effect.gen(function*() {
    const repo = yield* MembersRepo
    const audit = yield* Audit

    /** The ACTIVE membership of `accountId`, else `MemberNotFound`. */
    const activeMember = (workspaceId: string, accountId: string) =>
      Effect.flatMap(repo.member(workspaceId, accountId), (found) =>
        Option.isSome(found) && found.value.state === "ACTIVE"
          ? Effect.succeed(found.value)
          : Effect.fail(new MemberNotFound({ detail: `Account ${accountId} is not an active member of this workspace.` })))

    const reread = (workspaceId: string, accountId: string) =>
      Effect.flatMap(repo.member(workspaceId, accountId), Effect.orDieWith(() => "membership vanished in its transaction"))

    /** Whether an ADMIN caller may act on `target` (itself, or a member below ADMIN); the OWNER may act on anyone but itself. */
    const mayActOn = (callerRole: string, callerId: string, target: WorkspaceMember) =>
      callerRole === "OWNER" || target.role !== "ADMIN" || target.accountPublicId === callerId

    /**
     * Workspaces_UpdateMember: `role` for an ACTIVE member at `expectedVersion`. Fails with the
     * access refusals (404/423/409/403, see Access.ts), `MemberNotFound`, `OwnerFixed` (the
     * owner), `RoleRequired` (an ADMIN changing another ADMIN), `VersionConflict`.
     */
    const update = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly memberId: string
      readonly role: WorkspaceMember["role"]
      readonly expectedVersion: number
    }) =>
      Effect.gen(function*() {
        const caller = yield* requireAccess(repo, { ...input, permission: "members.manage", action: "Changing a member's role" })
        const target = yield* activeMember(input.workspaceId, input.memberId)
        if (target.isWorkspaceOwner) {
          return yield* new OwnerFixed({ detail: "The owner's role cannot be changed; transfer the ownership instead." })
        }
        if (!mayActOn(caller.role, input.accountId, target)) {
          return yield* new RoleRequired({ detail: "Only the OWNER changes the role of another ADMIN." })
        }
        if (target.version !== input.expectedVersion) return yield* versionConflict("membership")
        if (target.role === input.role) return target
        if (!(yield* repo.setRole({ ...input, accountId: input.memberId }))) return yield* versionConflict("membership")
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "member.role_changed",
          target: { type: "member", id: input.memberId },
          details: { from: target.role, to: input.role }
        })
        return yield* reread(input.workspaceId, input.memberId)
      }).pipe(dieOnStorageFailure)

    /** REVOKED at `expectedVersion`, with the member's API keys for the workspace; the audit `action`. */
    const revoke = (input: { workspaceId: string; actorId: string; memberId: string; expectedVersion: number; action: string }) =>
      Effect.gen(function*() {
        const at = yield* now
        if (!(yield* repo.revoke({ workspaceId: input.workspaceId, accountId: input.memberId, expectedVersion: input.expectedVersion, at }))) {
          return yield* versionConflict("membership")
        }
        const apiKeysRevoked = yield* repo.revokeApiKeysOf(input.workspaceId, input.memberId, at)
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.actorId,
          action: input.action,
          target: { type: "member", id: input.memberId },
          details: { apiKeysRevoked }
        })
        return yield* reread(input.workspaceId, input.memberId)
      })

    /**
     * Workspaces_RemoveMember: the member REVOKED (access ends at once) and the API keys they
     * created for the workspace revoked. Fails like {@link update}; the owner is `OwnerFixed`.
     */
    const remove = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly memberId: string
      readonly expectedVersion: number
    }) =>
      Effect.gen(function*() {
        const caller = yield* requireAccess(repo, { ...input, permission: "members.manage", action: "Removing a member" })
        const target = yield* activeMember(input.workspaceId, input.memberId)
        if (target.isWorkspaceOwner) {
          return yield* new OwnerFixed({ detail: "The owner cannot be removed; transfer the ownership first." })
        }
        if (!mayActOn(caller.role, input.accountId, target)) {
          return yield* new RoleRequired({ detail: "Only the OWNER removes another ADMIN." })
        }
        if (target.version !== input.expectedVersion) return yield* versionConflict("membership")
        return yield* revoke({ ...input, actorId: input.accountId, action: "member.removed" })
      }).pipe(dieOnStorageFailure)

    /**
     * Workspaces_LeaveWorkspace: the caller's own membership REVOKED (with its API keys for the
     * workspace). Fails with the access refusals, `OwnerFixed` for the owner, `VersionConflict`.
     */
    const leave = (input: { readonly workspaceId: string; readonly accountId: string; readonly expectedVersion: number }) =>
      Effect.gen(function*() {
        // no permission asked: membership suffices, so no RoleRequired can come
        yield* requireAccess(repo, { ...input, action: "Leaving a workspace" }).pipe(Effect.catchTag("RoleRequired", Effect.die))
        const me = yield* reread(input.workspaceId, input.accountId) // ACTIVE: requireAccess found it
        if (me.isWorkspaceOwner) {
          return yield* new OwnerFixed({ detail: "The owner cannot leave the workspace; transfer the ownership first." })
        }
        if (me.version !== input.expectedVersion) return yield* versionConflict("membership")
        return yield* revoke({ ...input, memberId: input.accountId, actorId: input.accountId, action: "member.left" })
      }).pipe(dieOnStorageFailure)

    /**
     * Workspaces_TransferOwnership (sensitive, spec §5.2): the ACTIVE member `newOwnerId` becomes
     * OWNER, the caller (the owner) ADMIN, the workspace at `expectedVersion` moves to the next
     * version. Fails with the access refusals (403 `role-required` for anyone but the OWNER),
     * `MemberNotFound` (not an ACTIVE member), `OwnerFixed` (to oneself), `VersionConflict`.
     */
    const transfer = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly newOwnerId: string
      readonly expectedVersion: number
    }) =>
      Effect.gen(function*() {
        const caller = yield* requireAccess(repo, {
          ...input,
          permission: "workspace.transferOwnership",
          action: "Transferring the ownership"
        })
        if (input.newOwnerId === input.accountId) {
          return yield* new OwnerFixed({ detail: "The caller already owns the workspace; name another active member." })
        }
        yield* activeMember(input.workspaceId, input.newOwnerId)
        if (caller.workspaceVersion !== input.expectedVersion) return yield* versionConflict("workspace")
        const at = yield* now
        // the workspace row's lock orders concurrent transfers: the second finds another version
        if (!(yield* repo.bumpWorkspace(input.workspaceId, input.expectedVersion, at))) return yield* versionConflict("workspace")
        if (!(yield* repo.demoteOwner(input.workspaceId, input.accountId))) return yield* versionConflict("workspace")
        if (!(yield* repo.promoteOwner(input.workspaceId, input.newOwnerId))) {
          return yield* new MemberNotFound({ detail: `Account ${input.newOwnerId} is not an active member of this workspace.` })
        }
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "workspace.ownership_transferred",
          target: { type: "workspace", id: input.workspaceId },
          details: { from: input.accountId, to: input.newOwnerId }
        })
        return {
          workspacePublicId: input.workspaceId,
          version: input.expectedVersion + 1,
          owner: yield* reread(input.workspaceId, input.newOwnerId),
          previousOwner: yield* reread(input.workspaceId, input.accountId)
        }
      }).pipe(dieOnStorageFailure)

    return { update, remove, leave, transfer }
  }),
  dependencies: [MembersRepo.Default]
}) {}
