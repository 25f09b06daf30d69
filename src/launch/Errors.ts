/**
 * The problem causes of Launch runs (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `launch-run-not-found`: no such launch run in the caller's workspaces. */
export class LaunchRunNotFound extends Problem<LaunchRunNotFound>()("LaunchRunNotFound", {
  status: 404, type: "launch-run-not-found", meaning: "no such launch run in the caller's workspaces"
}) {}
