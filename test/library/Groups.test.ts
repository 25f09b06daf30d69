/**
 * Every group of the contract from the library entry (`src/index.ts`): each `HttpApiGroup`
 * of `Api` is exported under its class name, and each one mounts on its own, as another
 * Effect app would take a single feature: an `HttpApi` of that group alone, served with the
 * handlers of its area (the exported `…Area` entry's `http`) and the middleware and
 * cross-cutting layers `ApiLive` uses, answers the group's first operation.
 */
import { HttpApi, HttpApiBuilder, HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Library from "../../src/index.js"
import { testConfigLayer } from "../support/config.js"
import { TestDb } from "../support/TestServer.js"

const {
  AccountsArea,
  AdminArea,
  AdsArea,
  AgentIdentitiesArea,
  AgentImportsArea,
  AgentsArea,
  AnalyticsArea,
  Api,
  BountiesArea,
  CommerceArea,
  JobBoardArea,
  OrdersArea,
  CommerceWebhooksArea,
  CommercePaymentsArea,
  LaunchArea,
  McpArea,
  MeshArea,
  NetworksArea,
  PartnerJobsArea,
  ProcurementArea,
  ProtocolsArea,
  RegistryArea,
  ReputationArea,
  RuntimeArea,
  ServicesArea,
  StatsArea,
  TokenOperationsArea,
  TrustArea,
  UpstreamSourcesArea,
  WalletsArea,
  WorkspacesArea
} = Library

/** The area (its exported entry) whose handlers implement each group, by group identifier. */
const areaOf: Record<string, Library.Area> = {
  Accounts: AccountsArea,
  Admin: AdminArea,
  Agents: AgentsArea,
  AgentIdentities: AgentIdentitiesArea,
  AgentImports: AgentImportsArea,
  BountyDisputes: BountiesArea,
  Bounties: BountiesArea,
  JobBoard: JobBoardArea,
  Analytics: AnalyticsArea,
  Commerce: CommerceArea,
  Orders: OrdersArea,
  CommerceWebhooks: CommerceWebhooksArea,
  CommercePayments: CommercePaymentsArea,
  Launch: LaunchArea,
  Mesh: MeshArea,
  Procurement: ProcurementArea,
  MCP: McpArea,
  Networks: NetworksArea,
  PartnerJobSources: PartnerJobsArea,
  Protocols: ProtocolsArea,
  Runtime: RuntimeArea,
  Services: ServicesArea,
  Stats: StatsArea,
  Trust: TrustArea,
  Reputation: ReputationArea,
  Wallets: WalletsArea,
  WalletAgentRelations: WalletsArea,
  WalletIntents: WalletsArea,
  WalletPolicies: WalletsArea,
  WalletProfiles: WalletsArea,
  WalletRegistration: WalletsArea,
  TokenOperations: TokenOperationsArea,
  Ads: AdsArea,
  Workspaces: WorkspacesArea,
  Registry: RegistryArea,
  UpstreamSources: UpstreamSourcesArea
}

const groups = Object.values(Api.groups) as unknown as ReadonlyArray<HttpApiGroup.HttpApiGroup.AnyWithProps>

/** The names the library entry exports a value under. */
const exportNames = (value: unknown) => Object.entries(Library).filter(([, v]) => v === value).map(([k]) => k)

/** One group alone, served with its area's handlers and what `ApiLive` provides around them. */
const mountAlone = (group: HttpApiGroup.HttpApiGroup.AnyWithProps, area: Library.Area) => {
  const api = HttpApi.make("AgentDirectoryApi").add(group)
  return HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApiBuilder.api(api)),
    Layer.provide(area.http as Layer.Layer<never, never, never>),
    Layer.provide([
      Library.RequestMiddlewareLive,
      Library.CorsLive,
      Library.SessionAuthLive,
      Library.PublicAuthLive,
      Library.RateBudgetMiddlewareLive
    ]),
    Layer.provide([
      Library.AuthLive,
      Library.CursorLive,
      Library.IdempotencyLive,
      Library.EnvelopeLive,
      Library.RateBudgetLive,
      Library.OperationsLive(api),
      Library.EdgeCacheLive,
      Library.OutboundConfigLive,
      Library.MailLive,
      Library.AuditLive,
      Library.ChainIntentsLive
    ]),
    Layer.provideMerge(NodeHttpServer.layerTest)
  )
}

/** The path of an endpoint with each `:param` filled (a well-formed id that names nothing). */
const pathOf = (path: string) => path.replace(/:\w+/g, "0190ffff-0000-7000-8000-000000000000")

/** Status and problem `type` (if a problem document) of one request to the mounted app. */
const send = (method: string, path: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.make(method as "GET")(path))
    const text = yield* response.text
    const problem = (response.headers["content-type"] ?? "").startsWith("application/problem+json")
    return { status: response.status, type: problem ? String(JSON.parse(text).type) : undefined }
  })

const noSuchOperation = "https://agent-directory.dev/problems/no-such-operation"

const SharedLive = Layer.mergeAll(Library.BackgroundLive, Library.IdsLive).pipe(
  Layer.provideMerge(TestDb),
  Layer.provideMerge(Library.IdsLive),
  Layer.provideMerge(testConfigLayer({ cookieSecure: false }))
)

layer(SharedLive, { timeout: 120_000 })("every group of Api from the library entry", (it) => {
  it("exports each group under its class name, and each group has its area's handlers", () => {
    for (const group of groups) {
      expect(exportNames(group), group.identifier).toContain(`${group.identifier === "MCP" ? "Mcp" : group.identifier}Api`)
      expect(areaOf[group.identifier], group.identifier).toBeDefined()
      expect(Library.areas, group.identifier).toContain(areaOf[group.identifier])
    }
    expect(Object.keys(areaOf).sort()).toEqual(groups.map((g) => g.identifier).sort())
  })

  for (const group of groups) {
    it.scoped(`mounts ${group.identifier} alone with its area's handlers`, () =>
      Effect.gen(function*() {
        const app = yield* Layer.build(mountAlone(group, areaOf[group.identifier]!))
        const [first] = Object.values(group.endpoints) as ReadonlyArray<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>
        // the group's operation is routed: an answer of its own (a success or its problem), not a 500
        const answer = yield* send(first!.method, pathOf(first!.path)).pipe(Effect.provide(app))
        expect(answer.type, `${first!.method} ${first!.path}`).not.toBe(noSuchOperation)
        expect(answer.status, `${first!.method} ${first!.path}`).toBeLessThan(500)
        // what an operation of no mounted group gets
        const none = yield* send("GET", "/api/v1/no-such-feature").pipe(Effect.provide(app))
        expect(none).toEqual({ status: 404, type: noSuchOperation })
      }))
  }
})
