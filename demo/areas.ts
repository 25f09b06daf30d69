/**
 * The demo areas: for each area of `src/areas.ts` (same names, same order), its seed step and
 * its manifest entries, from its folder `demo/<area>/`. `demo/seed.ts` runs the seed steps in
 * this order (an area's demo rows may reference those of the areas before it: foreign keys);
 * `demo/manifest.ts` gathers the manifests in this order. Every area of `src/areas.ts` has
 * its entry, also one with neither (test/architecture/DemoBoundary.test.ts checks the two
 * lists name the same areas in the same order).
 */
import { Effect } from "effect"
import type { DemoArea } from "./DemoArea.js"
import { seedAccounts } from "./accounts/seed.js"
import { AccountsManifest } from "./accounts/manifest.js"
import { seedWorkspaces } from "./workspaces/seed.js"
import { WorkspacesManifest } from "./workspaces/manifest.js"
import { seedProtocols } from "./protocols/seed.js"
import { ProtocolsManifest } from "./protocols/manifest.js"
import { seedAgents } from "./agents/seed.js"
import { AgentsManifest } from "./agents/manifest.js"
import { seedAgentImports } from "./agents/imports/seed.js"
import { AgentImportsManifest } from "./agents/imports/manifest.js"
import { seedIdentityProofs } from "./agents/identities/seed.js"
import { AgentIdentitiesManifest } from "./agents/identities/manifest.js"
import { seedServices } from "./services/seed.js"
import { ServicesManifest } from "./services/manifest.js"
import { seedCommerce } from "./commerce/seed.js"
import { CommerceManifest } from "./commerce/manifest.js"
import { OrdersManifest } from "./commerce/orders/manifest.js"
import { CommerceWebhooksManifest } from "./commerce/webhooks/manifest.js"
import { CommercePaymentsManifest } from "./commerce/payments/manifest.js"
import { McpManifest } from "./mcp/manifest.js"
import { AdminManifest } from "./admin/manifest.js"
import { seedLaunchRuns } from "./launch/seed.js"
import { LaunchManifest } from "./launch/manifest.js"
import { seedProcurement } from "./procurement/seed.js"
import { ProcurementManifest } from "./procurement/manifest.js"
import { seedMesh } from "./social/mesh/seed.js"
import { MeshManifest } from "./social/mesh/manifest.js"
import { seedRuntimeDemoData } from "./runtime/seed.js"
import { seedScheduleDemoData } from "./runtime/schedules.js"
import { RuntimeManifest } from "./runtime/manifest.js"
import { seedWalletsDemo } from "./wallets/seed.js"
import { WalletsManifest } from "./wallets/manifest.js"
import { seedTrustDemo } from "./trust/seed.js"
import { TrustManifest } from "./trust/manifest.js"
import { seedReputationDemo } from "./trust/reputation/seed.js"
import { ReputationManifest } from "./trust/reputation/manifest.js"
import { seedTokenOperations } from "./growth/tokenOperations/seed.js"
import { TokenOperationsManifest } from "./growth/tokenOperations/manifest.js"
import { seedBountyDisputes } from "./jobs/bounties/seed.js"
import { BountiesManifest } from "./jobs/bounties/manifest.js"
import { seedPartnerJobSources } from "./jobs/partnerJobs/seed.js"
import { PartnerJobsManifest } from "./jobs/partnerJobs/manifest.js"
import { JobBoardManifest } from "./jobs/board/manifest.js"
import { seedAnalytics } from "./social/analytics/seed.js"
import { AnalyticsManifest } from "./social/analytics/manifest.js"
import { seedAds } from "./growth/ads/seed.js"
import { AdsManifest } from "./growth/ads/manifest.js"
import { StatsManifest } from "./stats/manifest.js"
import { NetworksManifest } from "./networks/manifest.js"
import { seedRegistry } from "./registry/seed.js"
import { RegistryManifest } from "./registry/manifest.js"
import { seedUpstreamSources } from "./registry/upstream/seed.js"
import { UpstreamSourcesManifest } from "./registry/upstream/manifest.js"

/** Every demo area, in seed order (the order of `src/areas.ts`). */
export const demoAreas: ReadonlyArray<DemoArea> = [
  { name: "accounts", seed: seedAccounts, manifest: AccountsManifest },
  { name: "workspaces", seed: seedWorkspaces, manifest: WorkspacesManifest },
  { name: "protocols", seed: seedProtocols, manifest: ProtocolsManifest },
  { name: "agents", seed: seedAgents, manifest: AgentsManifest },
  { name: "agents/imports", seed: seedAgentImports, manifest: AgentImportsManifest },
  { name: "agents/identities", seed: seedIdentityProofs, manifest: AgentIdentitiesManifest },
  { name: "services", seed: seedServices, manifest: ServicesManifest },
  { name: "commerce", seed: seedCommerce, manifest: CommerceManifest },
  { name: "commerce/payments", manifest: CommercePaymentsManifest },
  { name: "commerce/orders", manifest: OrdersManifest },
  { name: "commerce/webhooks", manifest: CommerceWebhooksManifest },
  { name: "mcp", manifest: McpManifest },
  { name: "admin", manifest: AdminManifest },
  { name: "launch", seed: seedLaunchRuns, manifest: LaunchManifest },
  { name: "procurement", seed: seedProcurement, manifest: ProcurementManifest },
  { name: "social/mesh", seed: seedMesh, manifest: MeshManifest },
  { name: "runtime", seed: Effect.zipRight(seedRuntimeDemoData, seedScheduleDemoData), manifest: RuntimeManifest },
  { name: "wallets", seed: seedWalletsDemo, manifest: WalletsManifest },
  { name: "trust", seed: seedTrustDemo, manifest: TrustManifest },
  { name: "trust/reputation", seed: seedReputationDemo, manifest: ReputationManifest },
  { name: "growth/tokenOperations", seed: seedTokenOperations, manifest: TokenOperationsManifest },
  { name: "jobs/bounties", seed: seedBountyDisputes, manifest: BountiesManifest },
  { name: "jobs/partnerJobs", seed: seedPartnerJobSources, manifest: PartnerJobsManifest },
  { name: "jobs/board", manifest: JobBoardManifest },
  { name: "social/analytics", seed: seedAnalytics, manifest: AnalyticsManifest },
  { name: "growth/ads", seed: seedAds, manifest: AdsManifest },
  { name: "endpointHealth" },
  { name: "stats", manifest: StatsManifest },
  { name: "networks", manifest: NetworksManifest },
  { name: "registry", seed: seedRegistry, manifest: RegistryManifest },
  { name: "registry/upstream", seed: seedUpstreamSources, manifest: UpstreamSourcesManifest }
]
