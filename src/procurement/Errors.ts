/**
 * The problem causes of Procurement intents (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `procurement-intent-not-found`: no such procurement intent of this agent in the caller's workspaces. */
export class ProcurementIntentNotFound extends Problem<ProcurementIntentNotFound>()("ProcurementIntentNotFound", {
  status: 404, type: "procurement-intent-not-found", meaning: "no such procurement intent of this agent in the caller's workspaces"
}) {}
/** 409 `intent-expired`: the procurement intent expired; create a new one. */
export class IntentExpired extends Problem<IntentExpired>()("IntentExpired", {
  status: 409, type: "intent-expired", meaning: "the procurement intent expired; create a new one"
}) {}
/** 422 `procurement-provider-missing`: configuration missing: no procurement provider is configured for the agent. */
export class ProcurementProviderMissing extends Problem<ProcurementProviderMissing>()("ProcurementProviderMissing", {
  status: 422, type: "procurement-provider-missing", meaning: "configuration missing: no procurement provider is configured for the agent"
}) {}
/** 500 `provider-unavailable`: the procurement provider failed or could not be reached (`Retry-After`). */
export class ProviderUnavailable extends Problem<ProviderUnavailable>()("ProviderUnavailable", {
  status: 500, type: "provider-unavailable", meaning: "the procurement provider failed or could not be reached (`Retry-After`)"
}) {}
