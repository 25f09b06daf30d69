/**
 * The wallets area's operations as spec §4 lists them, and as the service declares the ones
 * that are ours: what test/openapi/OpenApi.test.ts checks `/openapi.json` against (path,
 * method, tag, `x-auth-mode`, `x-cache-policy`, `x-required-scopes`, `x-rate-cost`, the
 * Idempotency-Key header and exactly these statuses).
 */
import type { OperationExpectations } from "../openapi/operations.js"

/** The wallets area's operations, by operationId. */
export const operations = {
  Wallets_CancelWalletPolicy: { method: "post", path: "/api/v1/wallet-policies/{policyId}/cancel", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 410, 422, 500, 503] },
  Wallets_GetWalletProfileConfiguration: { method: "get", path: "/api/v1/wallets/{walletPublicId}/public-profile", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 410, 422, 500, 503] },
  // wallet registration (ours in the spec's conventions)
  Wallets_RegisterWallet: { method: "post", path: "/api/v1/wallets", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 410, 422, 500, 503] },
  Wallets_ListWallets: { method: "get", path: "/api/v1/wallets", tag: "Wallets", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  // public profiles and follows (ours in the spec's conventions)
  Wallets_UpdateWalletProfile: { method: "put", path: "/api/v1/wallets/{walletPublicId}/public-profile", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Wallets_GetWalletPublicProfile: { method: "get", path: "/api/v1/wallet-profiles/{network}/{address}", tag: "Wallets", auth: "optional-user", cache: "none", scopes: ["public:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Wallets_FollowWallet: { method: "put", path: "/api/v1/wallet-profiles/{network}/{address}/follow", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Wallets_UnfollowWallet: { method: "delete", path: "/api/v1/wallet-profiles/{network}/{address}/follow", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  // wallet policies' creation and reading (ours in the spec's conventions)
  Wallets_CreateWalletPolicy: { method: "post", path: "/api/v1/wallets/{walletPublicId}/policies", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  Wallets_GetWalletPolicy: { method: "get", path: "/api/v1/wallet-policies/{policyId}", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  // wallet-agent relations (spec §9, ours in the spec's conventions)
  Wallets_ListAgentWallets: { method: "get", path: "/api/v1/agents/{entityPublicId}/wallets", tag: "Wallets", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Wallets_ListWalletAgents: { method: "get", path: "/api/v1/wallets/{walletPublicId}/agents", tag: "Wallets", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  // transaction intents (ours in the spec's conventions, docs/chains.md)
  Wallets_GetTransactionIntent: { method: "get", path: "/api/v1/transaction-intents/{intentId}", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Wallets_SubmitTransactionIntent: { method: "post", path: "/api/v1/transaction-intents/{intentId}/submit", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 410, 422, 500, 503] }
} as const satisfies OperationExpectations
