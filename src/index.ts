/**
 * Library entry: mount the Agent Directory API in another Effect app, reuse its
 * layers and schemas, or derive a typed client with `HttpApiClient.make(Api)`.
 *
 * ```ts
 * import { HttpApiBuilder } from "@effect/platform"
 * import { Api, ApiLive, AppConfigLive, AreaSettingsLive, DbLive, IdsLive, migrate } from "agent-directory-api"
 * const Live = HttpApiBuilder.serve().pipe(
 *   Layer.provide(ApiLive), Layer.provide(DbLive(migrate)), Layer.provide(IdsLive),
 *   Layer.provide(AreaSettingsLive), Layer.provide(AppConfigLive))
 * ```
 */
// the contract
export { Api } from "./api/Api.js"
// its groups, one per line of src/api/Api.ts (an `HttpApiGroup` each, exported under its class name)
export { AccountsApi } from "./accounts/Api.js"
export { AdminApi } from "./admin/Api.js"
export { AgentsApi } from "./agents/Api.js"
export { AgentIdentitiesApi } from "./agents/identities/Api.js"
export { AgentImportsApi } from "./agents/imports/Api.js"
export { CommerceApi } from "./commerce/Api.js"
export { OrdersApi } from "./commerce/orders/Api.js"
export { CommerceWebhooksApi } from "./commerce/webhooks/Api.js"
export { CommercePaymentsApi } from "./commerce/payments/Api.js"
export { AdsApi } from "./growth/ads/Api.js"
export { TokenOperationsApi } from "./growth/tokenOperations/Api.js"
export { BountiesApi, BountyDisputesApi } from "./jobs/bounties/Api.js"
export { JobBoardApi } from "./jobs/board/Api.js"
export { PartnerJobSourcesApi } from "./jobs/partnerJobs/Api.js"
export { LaunchApi } from "./launch/Api.js"
export { McpApi } from "./mcp/Api.js"
export { NetworksApi } from "./networks/Api.js"
export { ProcurementApi } from "./procurement/Api.js"
export { ProtocolsApi } from "./protocols/Api.js"
export { RuntimeApi } from "./runtime/Api.js"
export { ServicesApi } from "./services/Api.js"
export { AnalyticsApi } from "./social/analytics/Api.js"
export { MeshApi } from "./social/mesh/Api.js"
export { StatsApi } from "./stats/Api.js"
export { TrustApi } from "./trust/Api.js"
export { ReputationApi } from "./trust/reputation/Api.js"
export { RegistryApi } from "./registry/Api.js"
export { UpstreamSourcesApi } from "./registry/upstream/Api.js"
export { WalletAgentRelationsApi } from "./wallets/relations/Api.js"
export { WalletsApi } from "./wallets/Api.js"
export { WalletIntentsApi } from "./wallets/intents/Api.js"
export { WalletPoliciesApi } from "./wallets/policies/Api.js"
export { WalletProfilesApi } from "./wallets/profiles/Api.js"
export { WalletRegistrationApi } from "./wallets/registration/Api.js"
export { WorkspacesApi } from "./workspaces/Api.js"
export { type AuthMode, type CachePolicy, operation, type OperationPolicy } from "./api/operation.js"
export { type Operation, operationTable, Operations, OperationsLive, type OperationTable } from "./api/policies.js"
export {
  apiKeyAuth,
  cookieAuth,
  CurrentPrincipal,
  currentSession,
  type Principal,
  PublicAuth,
  SessionAuth
} from "./api/security.js"

// the implementation
export { ApiLive, type DescribeApi, EdgeCacheLive, HttpLive, makeApiLive, makeHttpLive } from "./server.js"
export { EdgeCache, EdgeTtlMillis } from "./http/EdgeCache.js"
export * as EdgeServer from "./http/EdgeServer.js"
export { PublicAuthLive, SessionAuthLive } from "./http/AuthMiddleware.js"
export { Envelope, EnvelopeLive } from "./http/Envelope.js"
export { RequestMiddlewareLive } from "./http/RequestMiddleware.js"
export { type CatalogSnapshot, CatalogTtlMillis, ProtocolCatalogCache } from "./protocols/CatalogCache.js"
export { RateBudgetMiddlewareLive } from "./http/RateBudgetMiddleware.js"
export { CorsLive } from "./http/Cors.js"
export { migrate } from "./db/migrate.js"
export { BackgroundLive, backgroundLive, ChainIntentsLive, IntentOutcomesLive, ServiceEngineLive, WorkflowsLive } from "./workflows.js"
export { WorkflowExecutions } from "./admin/Executions.js"
export { MetricsServer, MetricsServerLive } from "./admin/Metrics.js"

// the areas (src/areas.ts): each one's `http` is its group's handlers with its own services provided
// (what is left is what `ApiLive` provides: the middleware and cross-cutting layers), with its
// background work
export { type Area } from "./Area.js"
export { areas } from "./areas.js"
export { AccountsArea } from "./accounts/Area.js"
export { AdminArea } from "./admin/Area.js"
export { AgentsArea } from "./agents/Area.js"
export { AgentIdentitiesArea } from "./agents/identities/Area.js"
export { AgentImportsArea } from "./agents/imports/Area.js"
export { CommerceArea } from "./commerce/Area.js"
export { OrdersArea } from "./commerce/orders/Area.js"
export { CommerceWebhooksArea } from "./commerce/webhooks/Area.js"
export { CommercePaymentsArea } from "./commerce/payments/Area.js"
export { EndpointHealthArea } from "./endpointHealth/Area.js"
export { AdsArea } from "./growth/ads/Area.js"
export { TokenOperationsArea } from "./growth/tokenOperations/Area.js"
export { BountiesArea } from "./jobs/bounties/Area.js"
export { PartnerJobsArea } from "./jobs/partnerJobs/Area.js"
export { JobBoardArea } from "./jobs/board/Area.js"
export { LaunchArea } from "./launch/Area.js"
export { McpArea } from "./mcp/Area.js"
export { NetworksArea } from "./networks/Area.js"
export { ProcurementArea } from "./procurement/Area.js"
export { ProtocolsArea } from "./protocols/Area.js"
export { RuntimeArea } from "./runtime/Area.js"
export { ServicesArea } from "./services/Area.js"
export { AnalyticsArea } from "./social/analytics/Area.js"
export { MeshArea } from "./social/mesh/Area.js"
export { StatsArea } from "./stats/Area.js"
export { TrustArea } from "./trust/Area.js"
export { ReputationArea } from "./trust/reputation/Area.js"
export { RegistryArea } from "./registry/Area.js"
export { UpstreamSourcesArea } from "./registry/upstream/Area.js"
export { WalletsArea } from "./wallets/Area.js"
export { WorkspacesArea } from "./workspaces/Area.js"

// the domain services (`Effect.Service`: the rules of an area, each with its `.Default` layer, which
// needs `SqlClient` and the cross-cutting layers); one whose name is also a schema namespace
// below (`Agents`, ...) is exported with the suffix `Service`
export { Accounts as AccountsService } from "./accounts/Accounts.js"
export { ApiKeys as ApiKeysService } from "./accounts/apiKeys/ApiKeys.js"
export { JobRetry } from "./admin/Retry.js"
export { AgentCards } from "./agents/cards/AgentCards.js"
export { Agents as AgentsService } from "./agents/Agents.js"
export { Favorites } from "./agents/favorites/Favorites.js"
export { AgentOperators } from "./agentAccess/Operators.js"
export { Registration } from "./agents/registration/Registration.js"
export { Identities } from "./agents/identities/Identities.js"
export { AgentImports } from "./agents/imports/Imports.js"
export { EndpointHealth } from "./endpointHealth/EndpointHealth.js"
export { Campaigns } from "./growth/ads/Campaigns.js"
export { Review } from "./growth/ads/Review.js"
export { Resolver } from "./identity/Resolver.js"
export { Disputes } from "./jobs/bounties/Disputes.js"
export { Sources } from "./jobs/partnerJobs/Sources.js"
export { Launch as LaunchService } from "./launch/Launch.js"
export { McpConnections } from "./mcp/connections/Connections.js"
export { Mcp } from "./mcp/Mcp.js"
export { McpOAuth } from "./mcp/oauth/McpOAuth.js"
export { Procurement as ProcurementService } from "./procurement/Procurement.js"
export { Conversations } from "./runtime/conversations/Conversations.js"
export { RunReads } from "./runtime/runs/RunReads.js"
export { Runtime } from "./runtime/Runtime.js"
export { RuntimeConfigs } from "./runtime/config/RuntimeConfigs.js"
export { Schedules } from "./runtime/schedules/Schedules.js"
export { Services as ServicesService } from "./services/Services.js"
export { Analytics } from "./social/analytics/Analytics.js"
export { Mesh as MeshService } from "./social/mesh/Mesh.js"
export { Stats } from "./stats/Stats.js"
export { Trust } from "./trust/Trust.js"
export { Reputation } from "./trust/reputation/Reputation.js"
export { AgentRelations } from "./wallets/relations/AgentRelations.js"
export { Wallets } from "./wallets/Wallets.js"
export { Workspaces as WorkspacesService } from "./workspaces/Workspaces.js"

// cross-cutting layers
export {
  AppConfig,
  AppConfigLive,
  type AppConfigShape,
  type DbLimits,
  DefaultDbLimits,
  loadAppConfig,
  OutboundConfigLive
} from "../layers/AppConfig.js"
// the areas' settings (each area's Config.ts), beside the cross-cutting AppConfig
export { AreaSettingsLive, type AreaSettingsShape } from "./config.js"
export { EndpointProbeSettings, EndpointProbeSettingsLive } from "./endpointHealth/Config.js"
export { AccountSettings, AccountSettingsLive } from "./accounts/Config.js"
export { WorkspaceSettings, WorkspaceSettingsLive } from "./workspaces/Config.js"
export { McpSettings, McpSettingsLive } from "./mcp/Config.js"
export { McpServerSettings, McpServerSettingsLive } from "./mcpServer/Config.js"
export { DefaultRunEventsOptions, type RunEventsOptions, RuntimeSettings, RuntimeSettingsLive } from "./runtime/Config.js"
export { Auth, AuthLive } from "../layers/Auth.js"
export { Audit, type AuditEntry, AuditLive } from "../layers/Audit.js"
export { Mail, MailLive, type MailMessage, throttleMail } from "../layers/Mail.js"
export { ClockManual, makeManualClock, type ManualClock, now } from "../layers/Clock.js"
export { Cursor, CursorLive } from "../layers/Cursor.js"
export { DefaultEngineOptions, EngineLive, type EngineOptions } from "../layers/Engine.js"
export {
  DefaultOutboundOptions,
  isPublicAddress,
  makeOutbound,
  Outbound,
  OutboundFailure,
  outboundFailureCodes,
  outboundFailureOf,
  OutboundLive,
  type OutboundOptions
} from "../layers/Outbound.js"
export { DbEmbedded, DbLive, DbServer, type Migrations } from "../layers/Db.js"
export { Idempotency, IdempotencyLive } from "../layers/Idempotency.js"
export {
  Chain,
  ChainLive,
  ChainServicesLive,
  type ChainShape,
  type NetworkInfo,
  PlatformSigner,
  PlatformSignerLive,
  type PlatformSignerShape
} from "../layers/Chain.js"
export { type ChainOptions, DefaultChainOptions } from "../layers/ChainConfig.js"
export {
  type IntentEvent,
  type IntentOutcomeHandler,
  IntentOutcomes,
  IntentPolicy,
  type IntentPurpose,
  TransactionIntents,
  type TransactionIntentsShape
} from "../layers/TransactionIntents.js"
export { RateBudget, RateBudgetLive } from "../layers/RateBudget.js"
export { Ids, IdsLive, IdsSequence } from "../layers/Ids.js"
export { type AccessEvent, AccessLog, LoggingLive } from "../layers/Logging.js"
export {
  DemoIssuer,
  type ProcurementAdapter,
  ProcurementProviders,
  ProcurementProvidersDemo,
  ProcurementProvidersFrom,
  ProviderUnavailable,
  type ResumeOutcome,
  type ResumeRequest
} from "../layers/ProcurementProvider.js"

// schemas
export * as Accounts from "../schema/accounts.js"
export * as ApiKeys from "./accounts/Schemas.js"
export * as Agents from "../schema/agents.js"
export * as Commerce from "./commerce/Schemas.js"
export * as Common from "../schema/common.js"
export * as Envelopes from "../schema/envelope.js"
export * as Launch from "./launch/Schemas.js"
export * as Mesh from "./social/mesh/Schemas.js"
export * as Problems from "../schema/problem.js"
export * as Errors from "../schema/errors.js"
export * as Procurement from "../schema/procurement.js"
export * as Protocols from "../schema/protocols.js"
export * as Services from "./services/Schemas.js"
export * as Workspaces from "../schema/workspaces.js"
