/**
 * Assembly: the API implementation (`ApiLive`), the HTTP app with docs and the
 * derived OpenAPI description (`HttpLive`), as layers another Effect app can reuse.
 */
import { Headers, HttpApiBuilder, HttpServer } from "@effect/platform"
import { Effect, Layer } from "effect"
import { AuthLive } from "../layers/Auth.js"
import { CursorLive } from "../layers/Cursor.js"
import { IdempotencyLive } from "../layers/Idempotency.js"
import { RateBudgetLive } from "../layers/RateBudget.js"
import { JobsLive } from "../layers/Jobs.js"
import { ProcurementProvidersDemo } from "../layers/ProcurementProvider.js"
import { Accounts } from "./accounts/Accounts.js"
import { ApiKeys } from "./accounts/ApiKeys.js"
import { AccountsHttpLive } from "./accounts/Http.js"
import { AdsHttpLive } from "./ads/Http.js"
import { Campaigns } from "./ads/Campaigns.js"
import { Review } from "./ads/Review.js"
import { AgentsHttpLive } from "./agents/Http.js"
import { Agents } from "./agents/Agents.js"
import { AgentsRepo } from "./agents/Repo.js"
import { Disputes } from "./bounties/Disputes.js"
import { BountyDisputesHttpLive } from "./bounties/Http.js"
import { ActivityRepo } from "./agents/ActivityRepo.js"
import { Analytics } from "./analytics/Analytics.js"
import { AnalyticsHttpLive } from "./analytics/Http.js"
import { Resolver } from "./identity/Resolver.js"
import { Api } from "./api/Api.js"
import { OperationsLive } from "./api/policies.js"
import { CommerceHttpLive } from "./commerce/Http.js"
import { CommerceRepo } from "./commerce/Repo.js"
import { LaunchHttpLive } from "./launch/Http.js"
import { Launch } from "./launch/Launch.js"
import { MeshHttpLive } from "./mesh/Http.js"
import { Mesh } from "./mesh/Mesh.js"
import { ProcurementHttpLive } from "./procurement/Http.js"
import { Procurement } from "./procurement/Procurement.js"
import { PublicAuthLive, SessionAuthLive } from "./http/AuthMiddleware.js"
import { accessLog, accessWriter } from "./http/AccessLog.js"
import { CorsLive } from "./http/Cors.js"
import { DocsLive } from "./http/Docs.js"
import { documentedApi } from "./http/DocumentedApi.js"
import { EdgeCache } from "./http/EdgeCache.js"
import { EnvelopeLive } from "./http/Envelope.js"
import { HomeLive } from "./http/Home.js"
import { McpHttpLive } from "./mcp/Http.js"
import { Mcp } from "./mcp/Mcp.js"
import { RateBudgetMiddlewareLive } from "./http/RateBudgetMiddleware.js"
import { RequestMiddlewareLive } from "./http/RequestMiddleware.js"
import { AdminHttpLive } from "./jobs/Http.js"
import { PartnerJobSourcesHttpLive } from "./partnerJobs/Http.js"
import { Sources } from "./partnerJobs/Sources.js"
import { ProtocolsHttpLive } from "./protocols/Http.js"
import { ProtocolCatalogCache } from "./protocols/CatalogCache.js"
import { RuntimeHttpLive } from "./runtime/Http.js"
import { Runs } from "./runtime/Runs.js"
import { Runtime } from "./runtime/Runtime.js"
import { ServicesHttpLive } from "./services/Http.js"
import { TokenOperationsHttpLive } from "./tokenOperations/Http.js"
import { TokenOperationsRepo } from "./tokenOperations/Repo.js"
import { Services } from "./services/Services.js"
import { TrustHttpLive } from "./trust/Http.js"
import { Trust } from "./trust/Trust.js"
import { WalletsHttpLive } from "./wallets/Http.js"
import { Wallets } from "./wallets/Wallets.js"
import { WorkspacesHttpLive } from "./workspaces/Http.js"
import { Workspaces } from "./workspaces/Workspaces.js"

/** The operation table of {@link Api} (one instance: layers are shared by reference). */
const ApiOperationsLive = OperationsLive(Api)

/**
 * The edge cache of `public-catalog` responses (src/http/EdgeCache.ts), shared by
 * {@link HttpLive}'s capture middleware and the edge server (`src/http/EdgeServer.ts`).
 * Requires `AppConfig` and `Ids`.
 */
export const EdgeCacheLive = EdgeCache.Default.pipe(Layer.provide([ApiOperationsLive, RateBudgetLive]))

/**
 * The implementation of {@link Api}: every group's handlers, the auth and request
 * middleware, the domain services and the cross-cutting layers (Auth, Cursor,
 * Idempotency, Envelope). Requires `SqlClient`, `AppConfig` and `Ids`. The api it
 * serves is {@link Api} with the demo examples in its OpenAPI description
 * (`src/http/DocumentedApi.ts`), which `/openapi.json` and `/docs` describe.
 */
export const ApiLive = HttpApiBuilder.api(documentedApi(Api)).pipe(
  Layer.provide([
    AccountsHttpLive,
    AdminHttpLive,
    AgentsHttpLive,
    AnalyticsHttpLive,
    CommerceHttpLive,
    LaunchHttpLive,
    MeshHttpLive,
    ProcurementHttpLive,
    McpHttpLive,
    ProtocolsHttpLive,
    RuntimeHttpLive,
    ServicesHttpLive,
    TrustHttpLive,
    WalletsHttpLive,
    WorkspacesHttpLive,
    RequestMiddlewareLive,
    CorsLive,
    BountyDisputesHttpLive,
    PartnerJobSourcesHttpLive,
    TokenOperationsHttpLive,
    AdsHttpLive
  ]),
  Layer.provide([
    SessionAuthLive,
    PublicAuthLive,
    RateBudgetMiddlewareLive,
    Accounts.Default,
    ApiKeys.Default,
    Services.Default,
    Launch.Default,
    Mesh.Default,
    Procurement.Default,
    Trust.Default,
    Wallets.Default,
    Workspaces.Default,
    Runtime.Default,
    Runs.Default,
    Mcp.Default,
    Agents.Default,
    AgentsRepo.Default,
    ActivityRepo.Default,
    Analytics.Default,
    Resolver.Default,
    CommerceRepo.Default,
    ProtocolCatalogCache.Default,
    Disputes.Default,
    Sources.Default,
    TokenOperationsRepo.Default,
    Campaigns.Default,
    Review.Default
  ]),
  Layer.provide([AuthLive, CursorLive, IdempotencyLive, EnvelopeLive, RateBudgetLive, JobsLive, ApiOperationsLive, EdgeCacheLive, ProcurementProvidersDemo])
)

/**
 * The HTTP app on an `HttpServer`: the API, `GET /openapi.json` (derived from
 * {@link Api}), the Scalar docs UI at `/docs` and `GET /` linking both, with the access log
 * (one line per request).
 */
export const HttpLive = Layer.unwrapEffect(
  Effect.map(
    Effect.all([EdgeCache, accessWriter]),
    ([edge, log]) => HttpApiBuilder.serve((app) => accessLog(log)(edge.capture(app)))
  )
).pipe(
  Layer.provide(EdgeCacheLive),
  Layer.provide(DocsLive),
  Layer.provide(HomeLive),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide(ApiLive),
  HttpServer.withLogAddress,
  // secrets in headers never reach logs or traces (cookie, authorization, x-api-key are redacted by default)
  Layer.locally(Headers.currentRedactedNames, ["authorization", "cookie", "set-cookie", "x-api-key", "x-csrf-token"])
)
