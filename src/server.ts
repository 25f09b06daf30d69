/**
 * Assembly: the API implementation (`ApiLive`), the HTTP app with docs and the
 * derived OpenAPI description (`HttpLive`), as layers another Effect app can reuse; and the
 * same for an api whose description is transformed (`makeApiLive`, `makeHttpLive`: the entry
 * point `bin/main.ts` adds the demo examples, `demo/DocumentedApi.ts`).
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServer from "@effect/platform/HttpServer"
import { Effect, Layer } from "effect"
import { OutboundConfigLive } from "../layers/AppConfig.js"
import { AuthLive } from "../layers/Auth.js"
import { AuditLive } from "../layers/Audit.js"
import { MailLive } from "../layers/Mail.js"
import { CursorLive } from "../layers/Cursor.js"
import { IdempotencyLive } from "../layers/Idempotency.js"
import { RateBudgetLive } from "../layers/RateBudget.js"
import { Api } from "./api/Api.js"
import { OperationsLive } from "./api/policies.js"
import { areas } from "./areas.js"
import { ChainIntentsLive } from "./workflows.js"
import { ChainServicesLive } from "../layers/Chain.js"
import { PublicAuthLive, SessionAuthLive } from "./http/AuthMiddleware.js"
import { accessLog, accessWriter } from "./http/AccessLog.js"
import { CorsLive } from "./http/Cors.js"
import { DirectoryAgentCardLive } from "./http/DirectoryAgentCard.js"
import { DocsLive } from "./http/Docs.js"
import { EdgeCache } from "./http/EdgeCache.js"
import { EnvelopeLive } from "./http/Envelope.js"
import { WebLive } from "./http/Web.js"
import { RateBudgetMiddlewareLive } from "./http/RateBudgetMiddleware.js"
import { RequestMiddlewareLive } from "./http/RequestMiddleware.js"
import { withSecurityHeaders } from "./http/SecurityHeaders.js"
import { Agents } from "./agents/Agents.js"
import { Reputation } from "./trust/reputation/Reputation.js"
import { Resolver } from "./identity/Resolver.js"
import { A2aEndpointLive } from "./a2aServer/A2aEndpoint.js"
import { McpEndpointLive } from "./mcpServer/McpEndpoint.js"
import { ProtocolCatalogCache } from "./protocols/CatalogCache.js"
import { Services } from "./services/Services.js"
import { JobBoard } from "./jobs/board/Jobs.js"

/** The operation table of {@link Api} (one instance: layers are shared by reference). */
const ApiOperationsLive = OperationsLive(Api)

/**
 * The edge cache of `public-catalog` responses (src/http/EdgeCache.ts), shared by
 * {@link HttpLive}'s capture middleware and the edge server (`src/http/EdgeServer.ts`).
 * Requires `AppConfig` and `Ids`.
 */
export const EdgeCacheLive = EdgeCache.Default.pipe(Layer.provide([ApiOperationsLive, RateBudgetLive]))

/** The handler layer of one area of `src/areas.ts`, as typed by that area. */
type AreaHttp = (typeof areas)[number]["http"]
// distributive over the areas' union (Layer.Layer.Success is not: a layer's output is contravariant)
type Groups<L> = L extends Layer.Layer<infer A, infer _E, infer _R> ? A : never
type Needs<L> = L extends Layer.Layer<infer _A, infer _E, infer R> ? R : never

/**
 * Every area's handlers, with its services: one layer whose output is every group the
 * areas implement (so `HttpApiBuilder.api(Api)` is checked to have all of its groups).
 */
const areaHandlers = Layer.mergeAll(
  ...(areas.map((area) => area.http) as [AreaHttp, ...Array<AreaHttp>])
) as unknown as Layer.Layer<Groups<AreaHttp>, never, Needs<AreaHttp>>

/**
 * A transform of the served api that keeps its groups and endpoints and changes only its
 * annotations (its OpenAPI description): `documentedApi` of `demo/DocumentedApi.ts`.
 */
export type DescribeApi = (api: typeof Api) => typeof Api

/**
 * The implementation of `describe(Api)` (by default {@link Api} itself): every group's handlers,
 * the auth and request middleware, the domain services and the cross-cutting layers (Auth,
 * Cursor, Idempotency, Envelope). Requires `SqlClient`, `AppConfig`, `Ids` and the engine
 * (`WorkflowEngine`, from `BackgroundLive` of `src/workflows.ts`). The api it serves is the one
 * `/openapi.json` and `/docs` describe. Call it once per server: each call is a new layer.
 */
export const makeApiLive = (describe?: DescribeApi) => HttpApiBuilder.api(describe === undefined ? Api : describe(Api)).pipe(
  Layer.provide(areaHandlers),
  Layer.provide([RequestMiddlewareLive, CorsLive, SessionAuthLive, PublicAuthLive, RateBudgetMiddlewareLive]),
  Layer.provide([
    AuthLive,
    CursorLive,
    IdempotencyLive,
    EnvelopeLive,
    RateBudgetLive,
    ApiOperationsLive,
    EdgeCacheLive,
    OutboundConfigLive,
    MailLive,
    AuditLive,
    ChainIntentsLive
  ])
)

/** The implementation of {@link Api}, whose description is the contract's (see {@link makeApiLive}). */
export const ApiLive = makeApiLive()

/**
 * The directory's own MCP server at `/mcp` (src/mcpServer/), on the services the
 * REST handlers use (the same layer references, so the same instances: one set of budgets).
 */
const McpServerLive = McpEndpointLive.pipe(
  Layer.provide([Agents.Default, Reputation.Default, Resolver.Default, ProtocolCatalogCache.Default, Services.Default, JobBoard.Default]),
  Layer.provide([AuthLive, RateBudgetLive, CursorLive, EnvelopeLive, EdgeCacheLive, ChainServicesLive])
)

/**
 * The directory's A2A interface at `/a2a/jsonrpc` and `/a2a/rest` (src/a2aServer/), on the same
 * services and budgets as REST and MCP.
 */
const A2aServerLive = A2aEndpointLive.pipe(
  Layer.provide([Agents.Default, Reputation.Default, Resolver.Default, ProtocolCatalogCache.Default, Services.Default, JobBoard.Default]),
  Layer.provide([AuthLive, RateBudgetLive, CursorLive, EnvelopeLive, EdgeCacheLive, ChainServicesLive])
)

/**
 * The HTTP app on an `HttpServer` serving `apiLive` (default {@link ApiLive}; `makeApiLive(describe)`
 * for a described api): the API, `GET /openapi.json` (derived from
 * the served api), the Scalar docs UI at `/docs`, the directory's A2A Agent Card at
 * `/.well-known/agent-card.json`, its A2A interface at `/a2a/jsonrpc` and `/a2a/rest`, the MCP
 * server at `/mcp` and `GET /` linking them, with the
 * access log (one line per request); every response carries the headers of
 * `src/http/SecurityHeaders.ts`.
 */
export const makeHttpLive = (apiLive: typeof ApiLive = ApiLive) => Layer.unwrapEffect(
  Effect.map(
    Effect.all([EdgeCache, accessWriter]),
    ([edge, log]) => withSecurityHeaders(HttpApiBuilder.serve((app) => accessLog(log)(edge.capture(app))))
  )
).pipe(
  Layer.provide(EdgeCacheLive),
  Layer.provide(DocsLive),
  Layer.provide(McpServerLive),
  Layer.provide(A2aServerLive),
  Layer.provide(WebLive),
  Layer.provide(DirectoryAgentCardLive),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide(apiLive),
  HttpServer.withLogAddress,
  // secrets in headers never reach logs or traces (cookie, authorization, x-api-key are redacted by default)
  Layer.locally(Headers.currentRedactedNames, ["authorization", "cookie", "set-cookie", "x-api-key", "x-csrf-token"])
)

/** The HTTP app serving {@link ApiLive} (see {@link makeHttpLive}). */
export const HttpLive = makeHttpLive()
