/** The problem causes of workspace members and ownership (the shared ones are in `schema/errors.ts`). */
import { Problem } from "../../../schema/problem.js"

/** 404 `member-not-found`: the account is not an ACTIVE member of the workspace. */
export class MemberNotFound extends Problem<MemberNotFound>()("MemberNotFound", {
  status: 404, type: "member-not-found", meaning: "the account is not an active member of the workspace"
}) {}
/** 409 `owner-fixed`: the owner's role cannot be changed and the owner cannot be removed or leave (transfer the ownership first). */
export class OwnerFixed extends Problem<OwnerFixed>()("OwnerFixed", {
  status: 409, type: "owner-fixed", meaning: "the owner cannot be changed, removed or leave; transfer the ownership first"
}) {}
