/**
 * The checks every member and invitation command makes first, in this order: the caller is
 * an ACTIVE member (else 404 `workspace-not-found`: existence is not revealed), no policy
 * lock holds the workspace (423), it is ACTIVE (409 `invalid-state`: not SUSPENDED, CLOSING or
 * CLOSED), and the caller's role holds `permission` (403 `role-required`, schema/roles.ts).
 */
import { Effect, Option } from "effect"
import { InvalidState, PolicyLocked, RoleRequired, WorkspaceNotFound } from "../../../schema/errors.js"
import { can, type Permission, rolesInWords } from "../../../schema/roles.js"
import type { MembersRepo } from "./Repo.js"

/** The caller's access, or the first refusal; `permission` undefined = membership suffices. */
export const requireAccess = (
  repo: MembersRepo,
  input: { readonly workspaceId: string; readonly accountId: string; readonly permission?: Permission; readonly action: string }
  // action: what the caller asked, as a sentence's subject ("Inviting members")
) =>
  Effect.gen(function*() {
    const found = yield* repo.access(input.workspaceId, input.accountId)
    if (Option.isNone(found)) return yield* new WorkspaceNotFound({ detail: `No workspace ${input.workspaceId}.` })
    const access = found.value
    if (access.locked) return yield* new PolicyLocked({ detail: "A policy lock holds this workspace; it cannot be changed now." })
    if (access.workspaceState !== "ACTIVE") {
      return yield* new InvalidState({ detail: `${input.action} needs an ACTIVE workspace; this one is ${access.workspaceState}.` })
    }
    if (input.permission !== undefined && !can(access.role, input.permission)) {
      return yield* new RoleRequired({ detail: `${input.action} needs ${rolesInWords(input.permission)} in the workspace.` })
    }
    return access
  })
