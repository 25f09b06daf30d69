/**
 * The problem causes of Accounts, sessions and API keys (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 429 `sign-in-throttled`: too many failed sign-ins for this email or address; retry after `Retry-After` seconds. */
export class SignInThrottled extends Problem<SignInThrottled>()("SignInThrottled", {
  status: 429, type: "sign-in-throttled", meaning: "too many failed sign-ins for this email or address; retry after `Retry-After` seconds"
}) {}
/** 404 `session-not-found`: no such session of the caller's. */
export class SessionNotFound extends Problem<SessionNotFound>()("SessionNotFound", {
  status: 404, type: "session-not-found", meaning: "no such session of the caller's"
}) {}
/** 404 `api-key-not-found`: no such API key in the workspace. */
export class ApiKeyNotFound extends Problem<ApiKeyNotFound>()("ApiKeyNotFound", {
  status: 404, type: "api-key-not-found", meaning: "no such API key in the workspace"
}) {}
