/**
 * The OpenAPI description (spec §4.1, §9) is derived from the contract and says
 * what the spec says: operationIds, tags, x-* extensions, security, the
 * Idempotency-Key header, and exactly the listed statuses as problem+json. It is
 * also usable: every operation is described with the problem types of
 * each status, its examples work against the demo data, Spectral's `spectral:oas`
 * ruleset finds nothing, and `/docs` loads nothing from outside the server.
 */
import { OpenApi } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import spectralCore from "@stoplight/spectral-core"
import spectralParsers from "@stoplight/spectral-parsers"
import { oas } from "@stoplight/spectral-rulesets"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect } from "effect"
import { problemCatalogue } from "../../src/api/docs.js"
import { Api } from "../../src/api/Api.js"
import { demoManifest, type ManifestOperation } from "../../demo/manifest.js"
import { documentedApi } from "../../demo/DocumentedApi.js"
import { call, type CallOptions, signIn } from "../support/http.js"
import { WholeManifestTimeoutMs } from "../support/manifest.js"
import { makeTestServer } from "../support/TestServer.js"

/** What spec §4 lists per operation, and what the service declares for the operations that are ours. */
const expected = {
  Accounts_SignIn: { method: "post", path: "/api/v1/auth/sign-in", tag: "Accounts", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 429, 500, 503] },
  Accounts_GetMe: { method: "get", path: "/api/v1/me", tag: "Accounts", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 401, 403, 500, 503] },
  Accounts_ListSessions: { method: "get", path: "/api/v1/me/sessions", tag: "Accounts", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 401, 403, 500, 503] },
  Accounts_RevokeSession: { method: "delete", path: "/api/v1/me/sessions/{sessionId}", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 429, 500] },
  // ours: API key management
  Accounts_CreateApiKey: { method: "post", path: "/api/v1/workspaces/{workspacePublicId}/api-keys", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Accounts_ListApiKeys: { method: "get", path: "/api/v1/workspaces/{workspacePublicId}/api-keys", tag: "Accounts", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Accounts_RevokeApiKey: { method: "delete", path: "/api/v1/workspaces/{workspacePublicId}/api-keys/{apiKeyPublicId}", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  // ours, not in the spec: the admin's view of background job runs
  Admin_ListJobRuns: { method: "get", path: "/api/v1/admin/jobs", tag: "Admin", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Admin_RetryJobRun: { method: "post", path: "/api/v1/admin/jobs/{executionId}/retry", tag: "Admin", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  Agents_ListAgents: { method: "get", path: "/api/v1/agents", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Agents_GetAgent: { method: "get", path: "/api/v1/agents/{entityPublicId}", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Agents_GetAgentCard: { method: "get", path: "/api/v1/agents/{entityPublicId}/agent-card", tag: "Agents", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Agents_CreateAgent: { method: "post", path: "/api/v1/agents", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Agents_UpdateAgent: { method: "patch", path: "/api/v1/agents/{entityPublicId}", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Agents_RetireAgent: { method: "post", path: "/api/v1/agents/{entityPublicId}/retire", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Agents_ListFavoriteAgents: { method: "get", path: "/api/v1/agents/favorites", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  // named in spec §9, shape ours: public read, no Idempotency-Key (read-only)
  Agents_ResolveAgentIdentities: { method: "post", path: "/api/v1/resolve/agent-identities", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 429, 500, 503] },
  // spec §4.3: analytics (tag Social; reading and downloading an export are ours) and public activity
  Agents_GetPublicAgentActivity: { method: "get", path: "/api/v1/agents/{entityPublicId}/activity", tag: "Agents", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, cost: 2, statuses: [200, 400, 401, 403, 404, 500, 503] },
  // ours: proof of control of an agent identity
  Agents_CreateIdentityChallenge: { method: "post", path: "/api/v1/agents/{entityPublicId}/identity-challenges", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500, 503] },
  Agents_ProveIdentity: { method: "post", path: "/api/v1/agents/{entityPublicId}/identities", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 410, 422, 500, 503] },
  Social_IngestProductEvent: { method: "post", path: "/api/v1/analytics/events", tag: "Social", auth: "optional-user", cache: "none", scopes: ["public:read"], idempotency: "optional", cost: 10, statuses: [202, 400, 401, 403, 404, 409, 429, 500, 503] },
  Social_CreateAnalyticsExport: { method: "post", path: "/api/v1/agents/{entityPublicId}/analytics/exports", tag: "Social", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 429, 500, 503] },
  Social_GetAnalyticsExport: { method: "get", path: "/api/v1/agents/{entityPublicId}/analytics/exports/{exportId}", tag: "Social", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Social_DownloadAnalyticsExport: { method: "get", path: "/api/v1/analytics/exports/download", tag: "Social", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 410, 500, 503] },
  Commerce_ListCommerceOrders: { method: "get", path: "/api/v1/orders", tag: "Commerce", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  // spec §4.3 lists 200, 500, 503; a presented API key that is not valid is refused
  // with the one 401 of spec §5.3 (403 without the scope), so those are declared too
  Protocols_GetProtocolCatalog: { method: "get", path: "/api/v1/protocols", tag: "Protocols", auth: "public", cache: "public-catalog", scopes: ["public:read"], idempotency: false, statuses: [200, 401, 403, 500, 503] },
  Services_PublishServiceOffer: { method: "post", path: "/api/v1/offers/{offerId}/publish", tag: "Services", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Workspaces_GetWorkspace: { method: "get", path: "/api/v1/workspaces/{workspacePublicId}", tag: "Workspaces", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 423, 500] },
  // spec §4.3: launch, procurement, mesh
  Launch_MaterializeLaunchTransaction: { method: "post", path: "/api/v1/launch-runs/{runId}/transaction-intent", tag: "Launch", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  Procurement_ResumeProcurementIntent: { method: "post", path: "/api/v1/agents/{entityPublicId}/procurement/intents/{intentPublicId}/resume", tag: "Procurement", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 422, 500] },
  Social_CreateMeshPublisher: { method: "post", path: "/api/v1/mesh/publishers", tag: "Social", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 429, 500, 503] },
  // spec §4.4: Runtime and MCP
  Runtime_ListRuntimeTools: { method: "get", path: "/api/v1/agents/{entityPublicId}/tools", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  Runtime_PreviewAgentSchedule: { method: "post", path: "/api/v1/agents/{entityPublicId}/schedules/preview", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  MCP_GetMcpCatalog: { method: "get", path: "/api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}/catalog", tag: "MCP", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  MCP_BeginMcpOAuth: { method: "post", path: "/api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}/oauth", tag: "MCP", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  // ours: the OAuth redirect endpoint of MCP connections
  MCP_CompleteMcpOAuth: { method: "get", path: "/api/v1/mcp/oauth/callback", tag: "MCP", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 409, 410, 422, 500, 503] },
  // ours: the evidence writes
  Trust_CreateFeedback: { method: "post", path: "/api/v1/agents/{entityPublicId}/feedback", tag: "Trust", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 201, 400, 401, 403, 404, 409, 500, 503] },
  Trust_VoteFeedback: { method: "post", path: "/api/v1/feedback/{feedbackId}/votes", tag: "Trust", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Agents_FavoriteAgent: { method: "put", path: "/api/v1/agents/{entityPublicId}/favorite", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 201, 400, 401, 403, 404, 409, 500, 503] },
  Agents_UnfavoriteAgent: { method: "delete", path: "/api/v1/agents/{entityPublicId}/favorite", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [204, 400, 401, 403, 404, 500, 503] },
  Trust_WithdrawFeedback: { method: "post", path: "/api/v1/feedback/{feedbackId}/withdraw", tag: "Trust", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 410, 422, 500, 503] },
  Wallets_CancelWalletPolicy: { method: "post", path: "/api/v1/wallet-policies/{policyId}/cancel", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 410, 422, 500, 503] },
  Wallets_GetWalletProfileConfiguration: { method: "get", path: "/api/v1/wallets/{walletPublicId}/public-profile", tag: "Wallets", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 410, 422, 500, 503] },
  Runtime_SendMessage: { method: "post", path: "/api/v1/conversations/{conversationId}/messages", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 422, 500] },
  Runtime_ClearPlaygroundRunData: { method: "delete", path: "/api/v1/runs/{runId}/playground-data", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  // ours: conversation and run reads
  Runtime_CreateConversation: { method: "post", path: "/api/v1/agents/{entityPublicId}/conversations", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500] },
  Runtime_ListConversations: { method: "get", path: "/api/v1/agents/{entityPublicId}/conversations", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Runtime_ListMessages: { method: "get", path: "/api/v1/conversations/{conversationId}/messages", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Runtime_GetRun: { method: "get", path: "/api/v1/runs/{runId}", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Runtime_StreamRunEvents: { method: "get", path: "/api/v1/runs/{runId}/events", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 204, 400, 401, 403, 404, 500, 503] },
  // ours: schedules that fire
  Runtime_CreateAgentSchedule: { method: "post", path: "/api/v1/agents/{entityPublicId}/schedules", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500] },
  Runtime_ListAgentSchedules: { method: "get", path: "/api/v1/agents/{entityPublicId}/schedules", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500] },
  Runtime_DeleteAgentSchedule: { method: "delete", path: "/api/v1/agents/{entityPublicId}/schedules/{scheduleId}", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Runtime_DecideToolApproval: { method: "post", path: "/api/v1/runs/{runId}/approvals", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  Runtime_CancelRun: { method: "post", path: "/api/v1/runs/{runId}/cancel", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500] },
  // ours: an agent's runtime configuration
  Runtime_ConfigureAgentRuntime: { method: "put", path: "/api/v1/agents/{entityPublicId}/runtime", tag: "Runtime", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 201, 400, 401, 403, 404, 409, 422, 500] },
  Runtime_GetAgentRuntime: { method: "get", path: "/api/v1/agents/{entityPublicId}/runtime", tag: "Runtime", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 422, 500] },
  // admin operations (spec §4.2); several groups share the Growth and Jobs tags
  Growth_ListAdminTokenOperations: { method: "get", path: "/api/v1/admin/token-operations", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Jobs_ResolveBountyDispute: { method: "post", path: "/api/v1/admin/bounties/{bountyId}/disputes/{disputeId}/resolution", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  Jobs_SyncPartnerJobSource: { method: "post", path: "/api/v1/admin/jobs/sources/{sourceId}/sync", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  // ad campaigns (spec §4.2)
  Growth_ListAdminAdCampaigns: { method: "get", path: "/api/v1/admin/ads/campaigns", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Growth_ReviewAdCampaign: { method: "post", path: "/api/v1/admin/ads/campaigns/{campaignId}/review", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  Growth_ListAdCampaigns: { method: "get", path: "/api/v1/ads/campaigns", tag: "Growth", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Growth_CreateAdCampaign: { method: "post", path: "/api/v1/ads/campaigns", tag: "Growth", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 500, 503] },
  Growth_RecordAdEvent: { method: "post", path: "/api/v1/ads/events", tag: "Growth", auth: "public", cache: "none", scopes: ["public:read"], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  // agent imports (ours, under the Agents tag)
  Agents_ImportAgentSource: { method: "post", path: "/api/v1/agents/{entityPublicId}/imports", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 429, 500, 503] },
  Agents_GetAgentImport: { method: "get", path: "/api/v1/agents/{entityPublicId}/imports/{importId}", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  // MCP connections (ours, in the spec's conventions)
  MCP_CreateMcpConnection: { method: "post", path: "/api/v1/agents/{entityPublicId}/mcp/connections", tag: "MCP", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [201, 400, 401, 403, 404, 409, 422, 500] },
  MCP_ListMcpConnections: { method: "get", path: "/api/v1/agents/{entityPublicId}/mcp/connections", tag: "MCP", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  MCP_GetMcpConnection: { method: "get", path: "/api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}", tag: "MCP", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 422, 500] },
  MCP_RefreshMcpCatalog: { method: "post", path: "/api/v1/agents/{entityPublicId}/mcp/connections/{connectionPublicId}/catalog/refresh", tag: "MCP", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 422, 500] },
  // daily statistics as immutable projections (spec §9 /api/v1/stats/*)
  Stats_GetDirectoryDailyStats: { method: "get", path: "/api/v1/stats/directory/daily/{date}", tag: "Stats", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Stats_ListDirectoryDailyStats: { method: "get", path: "/api/v1/stats/directory/daily", tag: "Stats", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Stats_GetAgentDailyStats: { method: "get", path: "/api/v1/stats/agents/{entityPublicId}/daily/{date}", tag: "Stats", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Stats_ListAgentDailyStats: { method: "get", path: "/api/v1/stats/agents/{entityPublicId}/daily", tag: "Stats", auth: "public", cache: "public-catalog", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  // wallet-agent relations (spec §9, ours in the spec's conventions)
  Wallets_ListAgentWallets: { method: "get", path: "/api/v1/agents/{entityPublicId}/wallets", tag: "Wallets", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Wallets_ListWalletAgents: { method: "get", path: "/api/v1/wallets/{walletPublicId}/agents", tag: "Wallets", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  // trust, rank and performance projections (Trust tag, group Reputation)
  Trust_GetAgentTrust: { method: "get", path: "/api/v1/agents/{entityPublicId}/trust", tag: "Trust", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Trust_GetAgentRank: { method: "get", path: "/api/v1/agents/{entityPublicId}/rank", tag: "Trust", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] },
  Trust_GetAgentPerformance: { method: "get", path: "/api/v1/agents/{entityPublicId}/performance", tag: "Trust", auth: "public", cache: "none", scopes: ["agents:read"], idempotency: false, statuses: [200, 400, 401, 403, 404, 500, 503] }
} as const

const server = makeTestServer()

layer(server.layer)("GET /openapi.json", (it) => {
  it.effect("is the description derived from Api (with the demo examples of the assembly), with the spec's info", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/openapi.json")
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(JSON.parse(JSON.stringify(OpenApi.fromApi(documentedApi(Api)))))
      expect(reply.body.openapi).toBe("3.1.1")
      expect(reply.body.info).toMatchObject({ title: "Agent Directory API", version: "1.0.0" })
      expect(reply.body.components.securitySchemes).toEqual({
        cookieAuth: expect.objectContaining({ type: "apiKey", in: "cookie", name: "session" }),
        apiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" })
      })
    }))

  it.effect("lists exactly the spec's operations, each with its extensions, security and statuses", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const found: Record<string, unknown> = {}
      for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
        for (const [method, op] of Object.entries<any>(methods)) found[op.operationId] = { path, method, op }
      }
      expect(Object.keys(found).sort()).toEqual(Object.keys(expected).sort())
      const tagNames = (doc.tags as Array<{ name: string }>).map((t) => t.name)
      expect(tagNames).toEqual([...new Set(tagNames)])
      for (const [id, spec] of Object.entries(expected)) {
        const { method, op, path } = found[id] as { path: string; method: string; op: any }
        expect({ id, path, method }).toEqual({ id, path: spec.path, method: spec.method })
        expect(op.tags).toEqual([spec.tag])
        expect(op["x-auth-mode"]).toBe(spec.auth)
        expect(op["x-cache-policy"]).toBe(spec.cache)
        expect(op["x-required-scopes"]).toEqual(spec.scopes)
        expect(op["x-rate-cost"]).toBe("cost" in spec ? spec.cost : 1)
        expect(op["x-stability"]).toBe("STABLE")
        expect(op.security).toEqual(
          spec.auth === "public" ? [{}, { apiKeyAuth: [] }]
            : spec.auth === "optional-user" ? [{}, { apiKeyAuth: [] }, { cookieAuth: [] }]
            : [{ cookieAuth: [] }]
        )
        expect(Object.keys(op.responses).map(Number).sort((a, b) => a - b), id).toEqual([...spec.statuses])
        for (const status of spec.statuses.filter((s) => s >= 400)) {
          expect(Object.keys(op.responses[String(status)].content), `${id} ${status}`).toEqual(["application/problem+json"])
        }
        const key = (op.parameters as Array<any>).find((p) => p.in === "header" && p.name === "Idempotency-Key")
        if (spec.idempotency === "optional") {
          expect(key, id).toMatchObject({ required: false, schema: expect.objectContaining({ format: "uuid" }) })
        } else if (spec.idempotency) {
          expect(key, id).toMatchObject({ required: true, schema: expect.objectContaining({ format: "uuid" }) })
        } else {
          expect(key, id).toBeUndefined()
        }
      }
    }))

  it.effect("describes problems with the RFC 9457 members and request bodies as closed objects", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const problem = doc.components.schemas.Problem
      expect(problem.required).toEqual(["type", "title", "status", "detail", "instance", "requestId"])
      expect(problem.properties.errors.type).toBe("array")
      const publish = doc.paths["/api/v1/offers/{offerId}/publish"].post
      const body = publish.requestBody.content["application/json"].schema
      const resolved = body.$ref ? doc.components.schemas[body.$ref.split("/").pop()] : body
      expect(resolved).toMatchObject({ type: "object", required: ["version"], additionalProperties: false })
    }))
})

layer(server.layer)("GET /docs", (it) => {
  it.effect("publishes Agents_ListAgents's repeated filters as arrays with their bounds", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/openapi.json")
      const params = reply.body.paths["/api/v1/agents"].get.parameters as ReadonlyArray<any>
      const schemaOf = (name: string) => params.find((p) => p.name === name && p.in === "query")?.schema
      expect(schemaOf("networks")).toMatchObject({ type: "array", maxItems: 20 })
      expect(schemaOf("protocols")).toMatchObject({ type: "array", maxItems: 20 })
      expect(schemaOf("verificationStates")).toMatchObject({ type: "array", maxItems: 6 })
      expect(JSON.stringify(schemaOf("verificationStates").items)).toContain("CONFLICTED")
      expect(schemaOf("limit")).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 25 })
    }))

  it.effect("serves the API reference UI", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/docs")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^text\/html/)
      expect(reply.text).toContain("Agent Directory API")
    }))
})

/** Every operation of the served description, with its path and method. */
const operationsOf = (doc: any): Array<{ path: string; method: string; op: any }> =>
  Object.entries<Record<string, any>>(doc.paths).flatMap(([path, methods]) =>
    Object.entries<any>(methods).map(([method, op]) => ({ path, method, op }))
  )

layer(server.layer)("GET /openapi.json is usable", (it) => {
  it.effect("describes every operation, with the problem types each listed status can carry", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const catalogue = problemCatalogue(Api)
      for (const { op } of operationsOf(doc)) {
        const id = op.operationId
        // the operation's own text comes first, before the generated "Try it" and problem sections
        expect((op.description as string).split("\n\n")[0]!.length, id).toBeGreaterThan(60)
        for (const status of Object.keys(op.responses).filter((s) => Number(s) >= 400)) {
          // the problem response names its kinds, and the description links each under its status
          const kinds = op.responses[status].description.split(": ")[1].split(", ")
          expect(kinds.length, `${id} ${status}`).toBeGreaterThan(0)
          const line = (op.description as string).split("\n").find((l) => l.startsWith(`- ${status}: `))
          expect(line, `${id} ${status}`).toBeDefined()
          for (const kind of kinds) {
            const cause = catalogue.find((c) => c.slug === kind && c.status === Number(status))
            expect(cause, `${id} ${status} ${kind}`).toBeDefined()
            expect(line, `${id} ${status}`).toContain(cause!.type)
          }
        }
      }
      const publish = operationsOf(doc).find((o) => o.op.operationId === "Services_PublishServiceOffer")!.op
      expect(publish.responses["409"].description).toMatch(/version-conflict, invalid-state, offer-incomplete, conflict, idempotency-key-reuse/)
      expect(publish.responses["403"].description).toMatch(/role-required.*csrf-token-invalid/)
      const revoke = operationsOf(doc).find((o) => o.op.operationId === "Accounts_RevokeSession")!.op
      expect(revoke.responses["423"].description).toBe("Locked: policy-locked")
      expect(revoke.responses["403"].description).toContain("reauthentication-required")
    }))

  it.effect("names the running server, a contact and a license", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })])
      expect(doc.info.contact).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^https:/) })
      expect(doc.info.license).toMatchObject({ name: expect.any(String) })
    }))

  it.effect("has no Spectral spectral:oas finding", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).text
      const spectral = new spectralCore.Spectral()
      spectral.setRuleset({ extends: [[oas as never, "recommended"]] })
      const findings = yield* Effect.promise(() => spectral.run(new spectralCore.Document(doc, spectralParsers.Json)))
      expect(findings.map((f) => `${f.code} ${f.path.join(".")}: ${f.message}`)).toEqual([])
    }))

  it.effect("is valid OpenAPI 3.1 for a strict validator (@seriousme/openapi-schema-validator)", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const validator = new Validator()
      const result = yield* Effect.promise(() => validator.validate(doc))
      expect(result.errors).toBeUndefined()
      expect(result.valid).toBe(true)
      expect(validator.version).toBe("3.1")
      // what it once refused: Schema.Unknown's "$id": "/schemas/unknown", twice; no schema has an $id now
      expect(JSON.stringify(doc)).not.toContain('"$id"')
    }))

  it.effect("has a meta without placeholder members (closed Meta)", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      expect(doc.components.schemas.Meta.additionalProperties).toBe(false)
      expect(JSON.stringify(doc)).not.toContain("propertyName")
    }))

  it.effect("declares no framework decode error (the api copy of src/api/Api.ts still holds)", () =>
    Effect.gen(function*() {
      expect(Api.errorSchema.ast._tag).toBe("NeverKeyword")
      const doc = (yield* call("GET", "/openapi.json")).text
      expect(doc).not.toContain("HttpApiDecodeError")
    }))

  it.effect("carries examples that succeed on the demo data (or answer their documented problem), sent as the docs' request panel sends them", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      for (const { method, op, path } of operationsOf(doc)) {
        const id: string = op.operationId
        const params: Array<any> = op.parameters
        for (const p of params.filter((p) => p.required)) expect(p.example, `${id} ${p.in} ${p.name}`).toBeDefined()
        const content = op.requestBody?.content ?? {}
        for (const type of Object.keys(content)) expect(content[type].example, `${id} body`).toBeDefined()
        const command = method !== "get"
        const session = op.security.some((s: any) => "cookieAuth" in s)
        const csrf = params.find((p) => p.in === "header" && p.name === "X-CSRF-Token")
        expect(csrf !== undefined, `${id} X-CSRF-Token`).toBe(command && session)
        const key = params.find((p) => p.in === "header" && p.name === "Idempotency-Key")
        if (key !== undefined) expect(key.example, id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        // build the request from the description alone; the caller is the one the "Try it" line names
        const as = (demoManifest.operations as Record<string, ManifestOperation>)[id]!.as
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params.find((p) => p.name === name).example))
        const query = new URLSearchParams(
          params.filter((p) => p.in === "query" && p.example !== undefined).map((p): [string, string] => [p.name, String(p.example)])
        ).toString()
        const options: CallOptions = {
          ...(content["application/json"] !== undefined ? { body: content["application/json"].example } : {}),
          idempotencyKey: key?.example ?? null,
          headers: Object.fromEntries(
            params.filter((p) => p.in === "header" && p.example !== undefined && !["Idempotency-Key", "X-CSRF-Token"].includes(p.name))
              .map((p): [string, string] => [p.name, String(p.example)])
          ),
          ...(as === "apiKey:public" || as === "anonymous" ? {} : { session: yield* signIn(as) })
        }
        if (as !== "anonymous" && as !== "apiKey:public") expect(op.description, id).toContain(demoManifest.accounts[as].email)
        const reply = yield* call(method.toUpperCase() as "GET", query === "" ? url : `${url}?${query}`, options)
        const problem = (demoManifest.operations as Record<string, ManifestOperation>)[id]!.problem
        if (problem !== undefined) {
          // documented as a problem on the demo data (ManifestOperation.problem)
          expect(reply.status, `${id}: ${reply.text}`).toBe(problem.status)
          expect(reply.body.type, id).toBe(`https://agent-directory.dev/problems/${problem.type}`)
          continue
        }
        expect(reply.status, `${id}: ${reply.text}`).toBeGreaterThanOrEqual(200)
        expect(reply.status, `${id}: ${reply.text}`).toBeLessThan(300)
      }
    }), WholeManifestTimeoutMs)
})

layer(server.layer)("GET /docs and GET /", (it) => {
  it.effect("the docs page references nothing outside the server and asks for no web fonts", () =>
    Effect.gen(function*() {
      const html = (yield* call("GET", "/docs")).text
      // the inlined Scalar bundle mentions URLs in its strings; what the page loads is in attributes and its configuration
      const withoutScripts = html.replace(/<script(?![^>]*\bsrc=)[^>]*>[\s\S]*?<\/script>/g, "")
      expect(withoutScripts).not.toMatch(/https?:\/\//)
      expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="https?:/)
      // the configuration is the data block's attribute (no inline script: the page runs under a CSP, SecurityHeaders.test.ts)
      const config = /data-configuration="([^"]*)"/.exec(html)
      // in development the request panel is pre-filled with the demo public key, not Scalar's "YOUR_SECRET_TOKEN"
      expect(JSON.parse(config![1]!.replace(/&quot;/g, "\"").replace(/&amp;/g, "&"))).toMatchObject({
        withDefaultFonts: false,
        authentication: { securitySchemes: { apiKeyAuth: { value: demoManifest.apiKeys.public.key } } }
      })
    }))

  it.effect("GET / links to the docs and the description", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^application\/json/)
      expect(reply.body.links).toEqual({
        docs: "/docs",
        openapi: "/openapi.json",
        mcp: "/mcp",
        agentCard: "/.well-known/agent-card.json"
      })
      // the MCP endpoint answers MCP requests (POST, Streamable HTTP), tested in test/mcp; the others are documents
      const { mcp: _, ...documents } = reply.body.links
      for (const link of Object.values<string>(documents)) expect((yield* call("GET", link)).status).toBe(200)
    }))
})
