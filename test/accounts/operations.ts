/**
 * The accounts area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The accounts area's operations, by operationId. */
export const operations = {
  Accounts_SignIn: { method: "post", path: "/api/v1/auth/sign-in", tag: "Accounts", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 429, 500, 503] },
  Accounts_GetMe: { method: "get", path: "/api/v1/me", tag: "Accounts", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 401, 403, 500, 503] },
  Accounts_ListSessions: { method: "get", path: "/api/v1/me/sessions", tag: "Accounts", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 401, 403, 500, 503] },
  Accounts_RevokeSession: { method: "delete", path: "/api/v1/me/sessions/{sessionId}", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 429, 500] },
  // ours: sign-up, email verification, password reset (public commands without Idempotency-Key, like sign-in)
  Accounts_SignUp: { method: "post", path: "/api/v1/auth/sign-up", tag: "Accounts", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [202, 400, 401, 403, 429, 500, 503] },
  Accounts_VerifyEmail: { method: "post", path: "/api/v1/auth/email-verification", tag: "Accounts", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Accounts_RequestPasswordReset: { method: "post", path: "/api/v1/auth/password-reset", tag: "Accounts", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [202, 400, 401, 403, 429, 500, 503] },
  Accounts_CompletePasswordReset: { method: "post", path: "/api/v1/auth/password-reset/complete", tag: "Accounts", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  // ours: API key management
  Accounts_CreateApiKey: { method: "post", path: "/api/v1/workspaces/{workspacePublicId}/api-keys", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Accounts_ListApiKeys: { method: "get", path: "/api/v1/workspaces/{workspacePublicId}/api-keys", tag: "Accounts", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Accounts_RevokeApiKey: { method: "delete", path: "/api/v1/workspaces/{workspacePublicId}/api-keys/{apiKeyPublicId}", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  // ours: the second factor (src/accounts/mfa)
  Accounts_VerifyMfa: { method: "post", path: "/api/v1/auth/mfa", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 409, 429, 500, 503] },
  Accounts_EnrollTotp: { method: "post", path: "/api/v1/me/mfa/totp", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 409, 500, 503] },
  Accounts_ConfirmTotp: { method: "post", path: "/api/v1/me/mfa/totp/confirm", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 409, 429, 500, 503] },
  Accounts_DisableTotp: { method: "post", path: "/api/v1/me/mfa/totp/disable", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 409, 429, 500, 503] },
  Accounts_RegenerateRecoveryCodes: { method: "post", path: "/api/v1/me/mfa/recovery-codes", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 409, 429, 500, 503] }
} as const satisfies OperationExpectations
