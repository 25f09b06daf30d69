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
/** 403 `sign-up-closed`: sign-up over the API is closed on this deployment (`SIGN_UP=closed`). */
export class SignUpClosed extends Problem<SignUpClosed>()("SignUpClosed", {
  status: 403, type: "sign-up-closed", meaning: "sign-up over the API is closed on this deployment (`SIGN_UP=closed`)"
}) {}
/**
 * 400 `token-invalid`: the email verification or password reset token is unknown, already used
 * or expired (one problem for all three: the answer reveals nothing of which).
 */
export class TokenInvalid extends Problem<TokenInvalid>()("TokenInvalid", {
  status: 400, type: "token-invalid", meaning: "the link's token is unknown, already used or expired; ask for a new link"
}) {}
