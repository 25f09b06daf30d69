/**
 * The root HttpApi contract of the Agent Directory API, version 1 (spec §1, §9).
 * Everything else (server routes, OpenAPI description, typed client) derives from it.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { ProblemDocument } from "../../schema/problem.js"
import { AccountsApi } from "../accounts/Api.js"
import { AdsApi } from "../growth/ads/Api.js"
import { AdminApi } from "../admin/Api.js"
import { AgentsApi } from "../agents/Api.js"
import { AgentImportsApi } from "../agents/imports/Api.js"
import { AgentIdentitiesApi } from "../agents/identities/Api.js"
import { BountiesApi, BountyDisputesApi } from "../jobs/bounties/Api.js"
import { AnalyticsApi } from "../social/analytics/Api.js"
import { CommerceApi } from "../commerce/Api.js"
import { OrdersApi } from "../commerce/orders/Api.js"
import { CommerceWebhooksApi } from "../commerce/webhooks/Api.js"
import { CommercePaymentsApi } from "../commerce/payments/Api.js"
import { LaunchApi } from "../launch/Api.js"
import { MeshApi } from "../social/mesh/Api.js"
import { ProcurementApi } from "../procurement/Api.js"
import { McpApi } from "../mcp/Api.js"
import { PartnerJobSourcesApi } from "../jobs/partnerJobs/Api.js"
import { JobBoardApi } from "../jobs/board/Api.js"
import { ProtocolsApi } from "../protocols/Api.js"
import { RuntimeApi } from "../runtime/Api.js"
import { ServicesApi } from "../services/Api.js"
import { StatsApi } from "../stats/Api.js"
import { NetworksApi } from "../networks/Api.js"
import { TrustApi } from "../trust/Api.js"
import { ReputationApi } from "../trust/reputation/Api.js"
import { RegistryApi } from "../registry/Api.js"
import { UpstreamSourcesApi } from "../registry/upstream/Api.js"
import { WalletsApi } from "../wallets/Api.js"
import { WalletAgentRelationsApi } from "../wallets/relations/Api.js"
import { WalletRegistrationApi } from "../wallets/registration/Api.js"
import { WalletProfilesApi } from "../wallets/profiles/Api.js"
import { WalletIntentsApi } from "../wallets/intents/Api.js"
import { WalletPoliciesApi } from "../wallets/policies/Api.js"
import { TokenOperationsApi } from "../growth/tokenOperations/Api.js"
import { WorkspacesApi } from "../workspaces/Api.js"

/**
 * `HttpApi.make` declares the framework's own decode error (a non-problem JSON body)
 * on every operation. We render every decode failure as our 400 problem instead (the
 * request middleware, `src/http/RequestMiddleware.ts`), so each operation lists exactly its
 * spec statuses.
 *
 * Not public API: @effect/platform 0.97 has no way to make or derive an `HttpApi` without
 * that error (`make` sets it, every combinator unions into it, the constructor is
 * internal), so this copies the api with `errorSchema` replaced, relying on the api
 * keeping its methods on its prototype and its state in own properties. The public
 * alternative, keeping the error and rewriting the OpenAPI document with `OpenApi.Transform`,
 * depends on more of the framework's unspecified output (its union rendering, content
 * types, component names) and would change the typed client's errors (src/index.ts). So
 * the copy is checked here: a framework upgrade that breaks it fails at start-up instead
 * of silently putting the framework's error back (and test/openapi checks the document).
 */
const withoutFrameworkErrors = <Id extends string, Groups extends import("@effect/platform").HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): HttpApi.HttpApi<Id, Groups, never, R> => {
  const copy: HttpApi.HttpApi<Id, Groups, never, R> = Object.assign(Object.create(Object.getPrototypeOf(api)), api, {
    errorSchema: Schema.Never
  })
  // what the class below does with it: a combinator must keep the empty error schema
  if (!HttpApi.isHttpApi(copy) || (copy.annotate(OpenApi.Version, "check").errorSchema as unknown) !== Schema.Never) {
    throw new Error("@effect/platform's HttpApi can no longer be copied without its decode error: see src/api/Api.ts")
  }
  return copy
}

/**
 * Several groups may share one spec tag (the groups Mesh and the analytics group are both
 * "Social", through `OpenApi.Title`); OpenAPI wants each tag name listed once, so the
 * entries of one name are merged (descriptions joined).
 */
const oneTagPerName = (tags: ReadonlyArray<{ readonly name: string; readonly description?: string }>) => {
  const byName = new Map<string, { name: string; description?: string }>()
  for (const tag of tags) {
    const seen = byName.get(tag.name)
    if (seen === undefined) byName.set(tag.name, { ...tag })
    else if (tag.description !== undefined && tag.description !== seen.description) {
      seen.description = seen.description === undefined ? tag.description : `${seen.description}; ${tag.description}`
    }
  }
  return [...byName.values()]
}

/** The Agent Directory API contract. */
export class Api extends withoutFrameworkErrors(HttpApi.make("AgentDirectoryApi"))
  .add(AccountsApi)
  .add(AdminApi)
  .add(AgentsApi)
  .add(AgentImportsApi)
  .add(AgentIdentitiesApi)
  .add(BountyDisputesApi)
  .add(BountiesApi)
  .add(AnalyticsApi)
  .add(CommerceApi)
  .add(OrdersApi)
  .add(CommerceWebhooksApi)
  .add(CommercePaymentsApi)
  .add(LaunchApi)
  .add(MeshApi)
  .add(ProcurementApi)
  .add(McpApi)
  .add(NetworksApi)
  .add(PartnerJobSourcesApi)
  .add(JobBoardApi)
  .add(ProtocolsApi)
  .add(RuntimeApi)
  .add(ServicesApi)
  .add(StatsApi)
  .add(TrustApi)
  .add(ReputationApi)
  .add(RegistryApi)
  .add(UpstreamSourcesApi)
  .add(WalletsApi)
  .add(WalletAgentRelationsApi)
  .add(WalletRegistrationApi)
  .add(WalletProfilesApi)
  .add(WalletIntentsApi)
  .add(WalletPoliciesApi)
  .add(TokenOperationsApi)
  .add(AdsApi)
  .add(WorkspacesApi)
  // `Problem`, the document every cause's component narrows (its `type` and `status` constant)
  .annotate(HttpApi.AdditionalSchemas, [ProblemDocument])
  .annotateContext(
    OpenApi.annotations({
      title: "Agent Directory API",
      version: "1.0.0",
      description:
        "Agent Directory and Operations API, version 1. Errors are application/problem+json (RFC 9457); " +
        "monetary and chain values are decimal strings of minor units.",
      // relative: the server that serves the description (spec §1: the server URL is the current origin),
      // so the docs' request panel calls whichever host `npm start` is reached on
      servers: [{ url: "/", description: "this server (the origin serving /openapi.json)" }],
      // no open-source license: the package is UNLICENSED (package.json)
      license: { name: "UNLICENSED (proprietary)" },
      override: { openapi: "3.1.1" },
      transform: (spec) => ({
        ...spec,
        info: { ...spec["info"], contact: { name: "Agent Directory API", url: "https://agent-directory.dev" } },
        tags: oneTagPerName(spec["tags"] ?? [])
      })
    })
  )
{}
