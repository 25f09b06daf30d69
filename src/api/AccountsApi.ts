/** Accounts area contract: sign-in and browser sessions (spec §5.2, §4.3). */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { AccountSession, RevokeSessionPath, RevokeSessionResult, SignInRequest, SignInResult } from "../../schema/accounts.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { operation } from "./operation.js"

export class AccountsApi extends HttpApiGroup.make("Accounts")
  .add(
    HttpApiEndpoint.post("signIn", "/api/v1/auth/sign-in")
      .setPayload(SignInRequest)
      .addSuccess(Data(SignInResult))
      .pipe(
        operation({
          id: "Accounts_SignIn",
          auth: "public",
          cache: "none",
          statuses: [400, 401, 403, 429, 500, 503],
          summary: "Sign in with email and password; sets the session cookie",
          description: "Checks the email and password and opens a browser session: the HttpOnly `session` cookie " +
            "carries it, and `data.csrfToken` must be sent as `X-CSRF-Token` on every session command. A wrong email " +
            "or password gets the one identical 401; a browser `Origin` must be allowed (login CSRF).",
          problems: { 403: ["origin-not-allowed"] }
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listSessions", "/api/v1/me/sessions")
      .addSuccess(Data(Schema.Array(AccountSession)))
      .pipe(
        operation({
          id: "Accounts_ListSessions",
          auth: "required-user",
          cache: "private",
          statuses: [401, 403, 500, 503],
          summary: "List the caller's active browser sessions",
          description: "The caller's live (neither revoked nor expired) sessions, newest first; `current` marks the one " +
            "making the request."
        })
      )
  )
  .add(
    HttpApiEndpoint.del("revokeSession", "/api/v1/me/sessions/:sessionId")
      .setPath(RevokeSessionPath)
      .setHeaders(IdempotencyKeyRequired)
      .addSuccess(Data(RevokeSessionResult))
      .pipe(
        operation({
          id: "Accounts_RevokeSession",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 423, 429, 500],
          summary: "Revoke one of the caller's sessions",
          description: "Revokes one of the caller's own sessions; `{revoked: 0}` when it was already revoked. " +
            "Revoking the current session signs out and never needs a recent sign-in. Revoking another of the " +
            "caller's sessions is sensitive (spec §5.2): it needs a sign-in within RECENT_AUTH_SECONDS. A session " +
            "of another account is not found.",
          problems: { 403: ["reauthentication-required"], 404: ["session-not-found"] }
        })
      )
  )
  .annotate(OpenApi.Description, "Accounts: sign-in and browser sessions")
{}
