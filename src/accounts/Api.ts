/**
 * Accounts area contract: sign-in and browser sessions (spec §5.2, §4.3), sign-up with email
 * verification and password reset (ours, `./signUp/`), and the
 * management of a workspace's public API keys (ours, spec §5.3 Creation/Rotation).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { AccountSession, Me, RevokeSessionPath, RevokeSessionResult, SignInRequest, SignInResult } from "../../schema/accounts.js"
import { alreadyShown, ApiKey, ApiKeyPath, CreateApiKeyRequest, CreatedApiKey, WorkspaceApiKeysPath } from "./Schemas.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { operation } from "../api/operation.js"
import { ReplayAs } from "../api/replay.js"
import { EmailNotVerified, InvalidRequest, OriginNotAllowed, ReauthenticationRequired, WorkspaceNotFound, WorkspaceRoleRequired } from "../../schema/errors.js"
import { ApiKeyNotFound, SessionNotFound, SignInThrottled } from "./Errors.js"
import { completePasswordReset, requestPasswordReset, signUp, verifyEmail } from "./signUp/Api.js"
import { confirmTotp, disableTotp, enrollTotp, regenerateRecoveryCodes, verifyMfa } from "./mfa/Api.js"

const isCreated = Schema.is(Data(CreatedApiKey))

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
            "or password gets the one identical 401; a browser `Origin` must be allowed (login CSRF). The right password of " +
            "an account whose email is not verified yet (Accounts_SignUp) gets 403 `email-not-verified`. " +
            "When the account has a second factor (TOTP), `data.mfaRequired` is true and the session can call " +
            "nothing but Accounts_VerifyMfa until a code completes it.",
          errors: [OriginNotAllowed, SignInThrottled, EmailNotVerified]
        })
      )
  )
  .add(signUp)
  .add(verifyEmail)
  .add(requestPasswordReset)
  .add(completePasswordReset)
  .add(
    HttpApiEndpoint.get("getMe", "/api/v1/me")
      .addSuccess(Data(Me))
      .pipe(
        operation({
          id: "Accounts_GetMe",
          auth: "required-user",
          cache: "private",
          statuses: [401, 403, 500, 503],
          summary: "The signed-in account with its workspaces and roles (spec §9)",
          description: "The signed-in account (publicId, email, displayName, isAdmin) and its ACTIVE workspace memberships with role, owner and default flags; default workspace first, then by name."
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
          errors: [ReauthenticationRequired, SessionNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createApiKey", "/api/v1/workspaces/:workspacePublicId/api-keys")
      .setPath(WorkspaceApiKeysPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateApiKeyRequest)
      .addSuccess(Data(CreatedApiKey), { status: 201 })
      // a replay says the key was already shown; the stored response never holds it
      .annotate(ReplayAs, (success) => isCreated(success) ? { ...success, data: alreadyShown(success.data) } : success)
      .pipe(
        operation({
          id: "Accounts_CreateApiKey",
          permission: "apiKeys.manage",
          auth: "required-user",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Create a public API key for the workspace (OWNER or ADMIN); the plaintext is shown once",
          description: "Creates a public API key (spec §5.3) of the server's DEPLOYMENT_ENV with the given scopes " +
            "(`public:read`, `agents:read`, `commerce:buy`: buying for the workspace over x402), optional `expiresAt` and optional `allowedOrigins` (exact " +
            "`http(s)://host[:port]` origins; browsers may use the key only from these, spec §5.4). The 201 carries the " +
            "plaintext `key` exactly once (`keyDelivery: SHOWN_ONCE`); a replay of the same Idempotency-Key returns the " +
            "metadata with `key: null` and `keyDelivery: ALREADY_SHOWN`. Needs a recent sign-in (sensitive). " +
            "Rotation: create the new key, move traffic, revoke the old one.",
          errors: [WorkspaceRoleRequired, ReauthenticationRequired, WorkspaceNotFound, InvalidRequest]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listApiKeys", "/api/v1/workspaces/:workspacePublicId/api-keys")
      .setPath(WorkspaceApiKeysPath)
      .addSuccess(Data(Schema.Array(ApiKey)))
      .pipe(
        operation({
          id: "Accounts_ListApiKeys",
          permission: "apiKeys.manage",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "List the workspace's API keys: metadata only, never a secret (OWNER or ADMIN)",
          description: "Every API key of the workspace, newest first: prefix, name, scopes, environment, state, " +
            "createdAt, lastUsedAt (updated at most once a minute), expiresAt and allowedOrigins. Never a secret.",
          errors: [WorkspaceRoleRequired, WorkspaceNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.del("revokeApiKey", "/api/v1/workspaces/:workspacePublicId/api-keys/:apiKeyPublicId")
      .setPath(ApiKeyPath)
      .setHeaders(IdempotencyKeyRequired)
      .addSuccess(Data(ApiKey))
      .pipe(
        operation({
          id: "Accounts_RevokeApiKey",
          permission: "apiKeys.manage",
          auth: "required-user",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Revoke an API key (rotation: create the new key, move traffic, revoke the old one)",
          description: "Revokes the key at once: every later request with it gets the identical 401 of spec §5.3. " +
            "Revoking a revoked key returns it unchanged. Needs a recent sign-in (sensitive).",
          errors: [WorkspaceRoleRequired, ReauthenticationRequired, WorkspaceNotFound, ApiKeyNotFound]
        })
      )
  )
  .add(verifyMfa)
  .add(enrollTotp)
  .add(confirmTotp)
  .add(disableTotp)
  .add(regenerateRecoveryCodes)
  .annotate(OpenApi.Description, "Accounts: sign-up, sign-in, MFA, password reset, browser sessions and public API keys")
{}
