/**
 * Library entry: mount the Agent Directory API in another Effect app, reuse its
 * layers and schemas, or derive a typed client with `HttpApiClient.make(Api)`.
 *
 * ```ts
 * import { HttpApiBuilder } from "@effect/platform"
 * import { Api, ApiLive, AppConfigLive, DbLive, IdsLive, migrate } from "agent-directory-api"
 * const Live = HttpApiBuilder.serve().pipe(
 *   Layer.provide(ApiLive), Layer.provide(DbLive(migrate)), Layer.provide(IdsLive), Layer.provide(AppConfigLive))
 * ```
 */
// the contract
export { Api } from "./api/Api.js"
export { AccountsApi } from "./accounts/Api.js"
export { AgentsApi } from "./agents/Api.js"
export { CommerceApi } from "./commerce/Api.js"
export { LaunchApi } from "./launch/Api.js"
export { MeshApi } from "./social/mesh/Api.js"
export { ProcurementApi } from "./procurement/Api.js"
export { ProtocolsApi } from "./protocols/Api.js"
export { ServicesApi } from "./services/Api.js"
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
export { ApiLive, EdgeCacheLive, HttpLive } from "./server.js"
export { EdgeCache, EdgeTtlMillis } from "./http/EdgeCache.js"
export * as EdgeServer from "./http/EdgeServer.js"
export { PublicAuthLive, SessionAuthLive } from "./http/AuthMiddleware.js"
export { Envelope, EnvelopeLive } from "./http/Envelope.js"
export { RequestMiddlewareLive } from "./http/RequestMiddleware.js"
export { type CatalogSnapshot, CatalogTtlMillis, ProtocolCatalogCache } from "./protocols/CatalogCache.js"
export { RateBudgetMiddlewareLive } from "./http/RateBudgetMiddleware.js"
export { CorsLive } from "./http/Cors.js"
export { migrate } from "./db/migrate.js"
export { BackgroundLive, backgroundLive, ServiceEngineLive, WorkflowsLive } from "./workflows.js"
export { WorkflowExecutions } from "./admin/Executions.js"
export { MetricsServer, MetricsServerLive } from "./admin/Metrics.js"
export { seedDemoData } from "./db/seed.js"

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
export { Auth, AuthLive } from "../layers/Auth.js"
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
export * as ApiKeys from "../schema/apiKeys.js"
export * as Agents from "../schema/agents.js"
export * as Commerce from "../schema/commerce.js"
export * as Common from "../schema/common.js"
export * as Envelopes from "../schema/envelope.js"
export * as Launch from "../schema/launch.js"
export * as Mesh from "../schema/mesh.js"
export * as Problems from "../schema/problem.js"
export * as Errors from "../schema/errors.js"
export * as Procurement from "../schema/procurement.js"
export * as Protocols from "../schema/protocols.js"
export * as Services from "../schema/services.js"
export * as Workspaces from "../schema/workspaces.js"
