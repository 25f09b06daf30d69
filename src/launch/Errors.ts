/**
 * The problem causes of Launch runs (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `launch-run-not-found`: no such launch run in the caller's workspaces. */
export class LaunchRunNotFound extends Problem<LaunchRunNotFound>()("LaunchRunNotFound", {
  status: 404, type: "launch-run-not-found", meaning: "no such launch run in the caller's workspaces"
}) {}

/** 404 `launch-draft-not-found`: no such launch draft in the caller's workspaces. */
export class LaunchDraftNotFound extends Problem<LaunchDraftNotFound>()("LaunchDraftNotFound", {
  status: 404, type: "launch-draft-not-found", meaning: "no such launch draft in the caller's workspaces"
}) {}

/**
 * 503 `launch-venue-unavailable`: the run's venue cannot prepare its transaction on this server now
 * (its network, registry contract or venue adapter is not configured, or transaction intents are not
 * available); retry once the server is configured.
 */
export class LaunchVenueUnavailable extends Problem<LaunchVenueUnavailable>()("LaunchVenueUnavailable", {
  status: 503, type: "launch-venue-unavailable", meaning: "the run's network, registry contract or venue adapter is not configured on this server"
}) {}
