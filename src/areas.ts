/**
 * THE list of areas (`src/<area>/`, named after the spec's area: the operationId's prefix,
 * `Jobs_*` in `src/jobs/`; a separate service of an area is a sub-feature folder,
 * `src/jobs/bounties/`, with its own entry here): the server's handlers and services (`src/server.ts`)
 * and the background work (`src/workflows.ts`) are assembled from it. Adding an area is its
 * folder, its line here and its group's `.add` in `src/api/Api.ts` (the contract, which must
 * not import implementations); `ApiLive` does not compile while a group of the contract has no
 * area here. An area's demo data, seed step and manifest are in `demo/<area>/`, listed in
 * `demo/areas.ts` (in this list's order).
 */
import { AccountsArea } from "./accounts/Area.js"
import { WorkspacesArea } from "./workspaces/Area.js"
import { ServicesArea } from "./services/Area.js"
import { CommerceArea } from "./commerce/Area.js"
import { OrdersArea } from "./commerce/orders/Area.js"
import { CommerceWebhooksArea } from "./commerce/webhooks/Area.js"
import { CommercePaymentsArea } from "./commerce/payments/Area.js"
import { ProtocolsArea } from "./protocols/Area.js"
import { McpArea } from "./mcp/Area.js"
import { AdminArea } from "./admin/Area.js"
import { LaunchArea } from "./launch/Area.js"
import { ProcurementArea } from "./procurement/Area.js"
import { MeshArea } from "./social/mesh/Area.js"
import { RuntimeArea } from "./runtime/Area.js"
import { WalletsArea } from "./wallets/Area.js"
import { TrustArea } from "./trust/Area.js"
import { ReputationArea } from "./trust/reputation/Area.js"
import { AgentsArea } from "./agents/Area.js"
import { AgentImportsArea } from "./agents/imports/Area.js"
import { AgentIdentitiesArea } from "./agents/identities/Area.js"
import { TokenOperationsArea } from "./growth/tokenOperations/Area.js"
import { BountiesArea } from "./jobs/bounties/Area.js"
import { PartnerJobsArea } from "./jobs/partnerJobs/Area.js"
import { JobBoardArea } from "./jobs/board/Area.js"
import { AnalyticsArea } from "./social/analytics/Area.js"
import { AdsArea } from "./growth/ads/Area.js"
import { EndpointHealthArea } from "./endpointHealth/Area.js"
import { StatsArea } from "./stats/Area.js"
import { NetworksArea } from "./networks/Area.js"
import { RegistryArea } from "./registry/Area.js"
import { UpstreamSourcesArea } from "./registry/upstream/Area.js"

/** Every area of the service. */
export const areas = [
  AccountsArea,
  WorkspacesArea,
  ProtocolsArea,
  AgentsArea,
  AgentImportsArea,
  AgentIdentitiesArea,
  ServicesArea,
  CommerceArea,
  CommercePaymentsArea,
  OrdersArea,
  CommerceWebhooksArea,
  McpArea,
  AdminArea,
  LaunchArea,
  ProcurementArea,
  MeshArea,
  RuntimeArea,
  WalletsArea,
  TrustArea,
  ReputationArea,
  TokenOperationsArea,
  BountiesArea,
  PartnerJobsArea,
  JobBoardArea,
  AnalyticsArea,
  AdsArea,
  EndpointHealthArea,
  StatsArea,
  NetworksArea,
  RegistryArea,
  UpstreamSourcesArea
] as const
