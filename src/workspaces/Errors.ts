/**
 * The problem causes of the Workspaces area (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 409 `slug-taken`: another workspace already has this slug. */
export class SlugTaken extends Problem<SlugTaken>()("SlugTaken", {
  status: 409, type: "slug-taken", meaning: "another workspace already has this slug"
}) {}
/** 409 `workspace-not-active`: the workspace is SUSPENDED, CLOSING or CLOSED, so it cannot be changed. */
export class WorkspaceNotActive extends Problem<WorkspaceNotActive>()("WorkspaceNotActive", {
  status: 409, type: "workspace-not-active", meaning: "the workspace is SUSPENDED, CLOSING or CLOSED, so it cannot be changed"
}) {}
/** 409 `workspace-limit-reached`: the account already owns the most workspaces one account may own. */
export class WorkspaceLimitReached extends Problem<WorkspaceLimitReached>()("WorkspaceLimitReached", {
  status: 409, type: "workspace-limit-reached", meaning: "the account already owns the most workspaces one account may own"
}) {}
