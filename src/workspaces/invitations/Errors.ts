/** The problem causes of workspace invitations (the shared ones are in `schema/errors.ts`). */
import { Problem } from "../../../schema/problem.js"

/** 404 `invitation-not-found`: no such invitation in the workspace, or no invitation has this token. */
export class InvitationNotFound extends Problem<InvitationNotFound>()("InvitationNotFound", {
  status: 404, type: "invitation-not-found", meaning: "no such invitation (or no invitation has this token)"
}) {}
/** 409 `already-member`: the address invited already belongs to an ACTIVE member, or the caller already is one. */
export class AlreadyMember extends Problem<AlreadyMember>()("AlreadyMember", {
  status: 409, type: "already-member", meaning: "the invited person is already an active member of the workspace"
}) {}
/** 409 `invitation-pending`: a PENDING invitation to the same address already exists (revoke it first). */
export class InvitationPending extends Problem<InvitationPending>()("InvitationPending", {
  status: 409, type: "invitation-pending", meaning: "a pending invitation to this address already exists"
}) {}
/** 409 `invitation-not-pending`: the invitation was already accepted, revoked or has expired. */
export class InvitationNotPending extends Problem<InvitationNotPending>()("InvitationNotPending", {
  status: 409, type: "invitation-not-pending", meaning: "the invitation is no longer pending (accepted, revoked or expired)"
}) {}
/** 410 `invitation-expired`: the invitation's time ran out before it was accepted. */
export class InvitationExpired extends Problem<InvitationExpired>()("InvitationExpired", {
  status: 410, type: "invitation-expired", meaning: "the invitation has expired; ask for a new one"
}) {}
/** 403 `invitation-for-another-account`: the invitation was sent to another email address than the signed-in account's. */
export class InvitationForAnotherAccount extends Problem<InvitationForAnotherAccount>()("InvitationForAnotherAccount", {
  status: 403,
  type: "invitation-for-another-account",
  meaning: "the invitation was sent to another email address; sign in with the invited account"
}) {}
