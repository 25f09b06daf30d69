/**
 * The ads area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoAdCampaigns, DemoAdOrders, DemoAdPackages, DemoAdPackageVersions, demoServingToken } from "./seed.js"
import { DemoAssets } from "../../common.js"
import { DemoAgents } from "../../agents/seed.js"
import { DemoWorkspaces } from "../../workspaces/seed.js"

/** The ads area's demo requests, by operationId. */
export const AdsManifest = {
  // ad packages: what a buyer orders by; an admin adds a package (needs ADS_PLATFORM_WORKSPACE_ID, docs/ads.md)
  Growth_ListAdPackages: { as: "anonymous", path: {}, query: {}, body: null },
  Growth_CreateAdPackage: {
    as: "admin",
    path: {},
    query: {},
    body: { code: "AD_POPUP", name: "Popup ad placement", placementKind: "POPUP", assetPublicId: DemoAssets.usdc.id, priceUnits: "75000000", durationDays: 14 }
  },
  Growth_CreateAdPackageVersion: {
    as: "admin",
    path: { packageId: DemoAdPackages.inline.id },
    query: {},
    body: { expectedVersion: 1, assetPublicId: DemoAssets.usdc.id, priceUnits: "80000000", durationDays: 30 }
  },
  // ad campaigns (spec §4.2); the serving token is signed for the development secret
  Growth_ListAdCampaigns: { as: "member", path: {}, query: {}, body: null },
  Growth_CreateAdCampaign: {
    as: "owner",
    path: {},
    query: {},
    body: {
      workspaceId: DemoWorkspaces.acme.id,
      agentPublicId: DemoAgents[0].id,
      orderId: DemoAdOrders.paid.id,
      packageVersionId: DemoAdPackageVersions.stripV2.id,
      name: "Atlas summer research sprint",
      destinationUrl: "https://atlas.example/summer?utm_source=agent-directory",
      startAt: "2026-07-01T00:00:00.000Z",
      headline: "Research done while you sleep",
      body: "Atlas reads the sources and writes the brief.",
      targets: [{ dimension: "NETWORK", value: "base" }, { dimension: "LANGUAGE", value: "en" }]
    }
  },
  Growth_SubmitAdCampaign: {
    as: "owner",
    path: { campaignId: DemoAdCampaigns.funded.id },
    query: {},
    body: {
      expectedVersion: DemoAdCampaigns.funded.version,
      creative: { kind: "TEXT", headline: "Atlas for research teams", body: "Shared briefs, one subscription." }
    }
  },
  // the demo's ACTIVE strip campaign targets NETWORK base and excludes COUNTRY KP
  Growth_ServeAd: { as: "anonymous", path: {}, query: { placement: "STRIP", network: "base", country: "DE", visitor: "demo-visitor-1" }, body: null },
  Growth_RecordAdEvent: { as: "anonymous", path: {}, query: {}, body: { token: demoServingToken(), kind: "IMPRESSION" } },
  Growth_ListAdminAdCampaigns: { as: "admin", path: {}, query: {}, body: null },
  Growth_ReviewAdCampaign: {
    as: "admin",
    path: { campaignId: DemoAdCampaigns.submitted.id },
    query: {},
    body: {
      decision: "APPROVE",
      expectedVersion: DemoAdCampaigns.submitted.version,
      decisionCode: "POLICY_OK",
      publicDecision: "The campaign meets the ad policy.",
      privateDecision: "Checked the destination and the claims in the headline.",
      dryRun: true
    }
  }
} satisfies Record<string, ManifestOperation>
