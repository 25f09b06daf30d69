/**
 * Demo data of ad campaigns (spec §2.3, §3): the ad packages the demo ad
 * orders bought (demo/commerce/seed.ts `DemoOrders`), campaigns in several states across
 * the demo workspaces, and a serving token of the ACTIVE campaign.
 *
 * The ACTIVE campaign is funded by an order (ORD-2026-0006) and the DRAFT `funded` one by
 * ORD-2026-0047 (PAID: it can be submitted); the others are placements granted without one
 * (`orderId` null). ORD-2026-0004 (PAID) funds no
 * campaign yet: the demo manifest creates one from it.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { deriveKey, DevelopmentSecret } from "../../../layers/AppConfig.js"
import { mint, type ServingClaims } from "../../../src/growth/ads/ServingToken.js"
import { ensurePackageOffers } from "../../../src/growth/ads/PackageOffers.js"
import { IdsSequence } from "../../../layers/Ids.js"
import { DemoAccounts } from "../../accounts/seed.js"
import { DemoAgents } from "../../agents/seed.js"
import { DemoOrders } from "../../commerce/seed.js"
import { DemoAssets, demoId, demoTime } from "../../common.js"
import { DemoWorkspaces } from "../../workspaces/seed.js"

// this file's id groups: 0xb0-0xbf
const id = demoId

/**
 * The platform's workspace, which sells the ad packages (`ADS_PLATFORM_WORKSPACE_ID` of a
 * deployment; docs/ads.md): no members, its service "Advertising" holds one PUBLISHED offer
 * per package and one price per package version (src/growth/ads/PackageOffers.ts).
 */
export const DemoPlatformWorkspace = { id: id(0xb5, 1), name: "Agent Directory Platform", slug: "agent-directory-platform" } as const

/** Ad packages; `code` is the product code of the orders that buy them. */
export const DemoAdPackages = {
  strip: { id: id(0xb0, 1), code: "AD_STRIP", name: "Strip ad placement", placementKind: "STRIP" },
  square: { id: id(0xb0, 2), code: "AD_SQUARE", name: "Square ad placement", placementKind: "SQUARE" },
  inline: { id: id(0xb0, 3), code: "AD_INLINE", name: "Inline ad placement", placementKind: "INLINE" }
} as const

/** Package versions: price (USDC, 6 decimals) and run length in days. */
export const DemoAdPackageVersions = {
  stripV1: { id: id(0xb1, 1), package: "strip", version: 1, priceUnits: "120000000", durationDays: 14 },
  stripV2: { id: id(0xb1, 2), package: "strip", version: 2, priceUnits: "150000000", durationDays: 30 },
  square: { id: id(0xb1, 3), package: "square", version: 1, priceUnits: "90000000", durationDays: 30 },
  inline: { id: id(0xb1, 4), package: "inline", version: 1, priceUnits: "60000000", durationDays: 14 },
  /**
   * The ACTIVE demo campaign's: ten years, so it is still ACTIVE (and its serving token,
   * valid until 2036, records events) on `npm start` today, not COMPLETED by the lifecycle
   * cron (`src/growth/ads/Lifecycle.ts`) at the first tick.
   */
  stripDecade: { id: id(0xb1, 5), package: "strip", version: 3, priceUnits: "150000000", durationDays: 3650 }
} as const
type VersionName = keyof typeof DemoAdPackageVersions

const order = (number: string) => DemoOrders.find((o) => o.number === number)!

/** The demo ad orders by role (see the module docs). */
export const DemoAdOrders = {
  /** PAID, no campaign: the create example. */
  paid: order("ORD-2026-0004"),
  /** PAYMENT_OBSERVED: a campaign created from it starts PAYMENT_PENDING. */
  observed: order("ORD-2026-0005"),
  /** PAYMENT_PENDING: cannot fund a campaign (409). */
  unpaid: order("ORD-2026-0002"),
  /** ACTIVE, funds the ACTIVE campaign. */
  funding: order("ORD-2026-0006"),
  /** PAID, funds the DRAFT campaign `funded` (the submit example). */
  square: order("ORD-2026-0047")
} as const

interface DemoCampaign {
  readonly id: string
  readonly publicId: string
  readonly creativeId: string
  readonly workspace: keyof typeof DemoWorkspaces
  readonly agent: number | null
  readonly order: string | null
  readonly packageVersion: VersionName
  readonly name: string
  readonly state: string
  readonly creativeState: string
  readonly image?: boolean
  readonly startDay: number
  readonly version: number
  readonly metrics: readonly [impressions: number, clicks: number, uniqueVisitors: number]
  readonly day: number
}

const campaign = (n: number, c: Omit<DemoCampaign, "id" | "publicId" | "creativeId">): DemoCampaign => ({
  id: id(0xb2, n),
  publicId: id(0xb3, n),
  creativeId: id(0xb4, n),
  ...c
})

/**
 * Campaigns in several states (spec §3). The test clock starts on day 151 (2026-06-01).
 * Time moves them (`src/growth/ads/Lifecycle.ts`): the ACTIVE one completes only in 2036; the
 * others are before approval, PAUSED or REJECTED, which time leaves alone, until a
 * review approves one (`submitted` starts on day 200, `underReview` ended on day 159).
 */
export const DemoAdCampaigns = {
  /** Runs 2026-05-21 to 2036-05-18 (see `stripDecade`). */
  active: campaign(1, {
    workspace: "acme", agent: 0, order: DemoAdOrders.funding.id, packageVersion: "stripDecade", name: "Atlas spring launch",
    state: "ACTIVE", creativeState: "APPROVED", startDay: 140, version: 5, metrics: [1200, 37, 800], day: 36
  }),
  draft: campaign(2, {
    workspace: "acme", agent: null, order: null, packageVersion: "square", name: "Acme brand square",
    state: "DRAFT", creativeState: "DRAFT", startDay: 180, version: 1, metrics: [0, 0, 0], day: 120
  }),
  /** Starts in the future: approving schedules it. */
  submitted: campaign(3, {
    workspace: "acme", agent: 0, order: null, packageVersion: "stripV1", name: "Atlas research week",
    state: "SUBMITTED", creativeState: "READY", startDay: 200, version: 2, metrics: [0, 0, 0], day: 125
  }),
  /** Started already: approving approves it. */
  underReview: campaign(4, {
    workspace: "acme", agent: 0, order: null, packageVersion: "inline", name: "Atlas in the listings",
    state: "UNDER_REVIEW", creativeState: "READY", startDay: 145, version: 3, metrics: [0, 0, 0], day: 130
  }),
  paused: campaign(5, {
    workspace: "acme", agent: null, order: null, packageVersion: "square", name: "Acme winter banner",
    state: "PAUSED", creativeState: "APPROVED", image: true, startDay: 100, version: 4, metrics: [5400, 121, 3900], day: 90
  }),
  rejected: campaign(6, {
    workspace: "acme", agent: null, order: null, packageVersion: "stripV1", name: "Too good to be true",
    state: "REJECTED", creativeState: "REJECTED", startDay: 150, version: 3, metrics: [0, 0, 0], day: 110
  }),
  /** Funded by a paid order: the example of Growth_SubmitAdCampaign. */
  funded: campaign(8, {
    workspace: "acme", agent: 0, order: DemoAdOrders.square.id, packageVersion: "square", name: "Atlas square for teams",
    state: "DRAFT", creativeState: "DRAFT", startDay: 210, version: 1, metrics: [0, 0, 0], day: 138
  }),
  /** The Outsider Lab's: invisible to Acme members, listed to admins. */
  outsider: campaign(7, {
    workspace: "outsider", agent: null, order: null, packageVersion: "inline", name: "Outsider Lab open day",
    state: "SUBMITTED", creativeState: "READY", startDay: 170, version: 1, metrics: [0, 0, 0], day: 135
  })
} as const satisfies Record<string, DemoCampaign>
export type DemoAdCampaignName = keyof typeof DemoAdCampaigns

/** Claims of the demo serving token: the ACTIVE campaign in the directory's home strip, until 2036. */
export const DemoServingClaims = {
  campaign: DemoAdCampaigns.active.id,
  placement: "directory.home.strip",
  visitor: "demo-visitor-1",
  exp: Date.UTC(2036, 0, 1) / 1000
} as const

/**
 * A serving token of the ACTIVE demo campaign, signed for the development secret:
 * valid on `npm start` without `APP_SECRET` (and in the tests, whose config uses that key).
 */
export const demoServingToken = (claims: Partial<ServingClaims> = {}): string =>
  mint(Redacted.value(deriveKey(DevelopmentSecret, "ad-serving")), { ...DemoServingClaims, ...claims })

/** Inserts the demo ad packages, versions, campaigns and creatives. Fails with `SqlError`. */
export const seedAds = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO ad_packages ${
    sql.insert(Object.values(DemoAdPackages).map((p) => ({
      id: p.id,
      code: p.code,
      name: p.name,
      placement_kind: p.placementKind,
      created_at: demoTime(5)
    })))
  }`
  yield* sql`INSERT INTO ad_package_versions ${
    sql.insert(Object.values(DemoAdPackageVersions).map((v) => ({
      id: v.id,
      package_id: DemoAdPackages[v.package].id,
      version: v.version,
      asset_id: DemoAssets.usdc.id,
      price_units: v.priceUnits,
      duration_days: v.durationDays,
      created_at: demoTime(5 + v.version)
    })))
  }`
  // the platform sells the packages: its workspace, then the offers and prices as a deployment makes them
  yield* sql`INSERT INTO workspaces ${
    sql.insert({
      id: DemoPlatformWorkspace.id,
      name: DemoPlatformWorkspace.name,
      slug: DemoPlatformWorkspace.slug,
      state: "ACTIVE",
      created_at: demoTime(1),
      updated_at: demoTime(1)
    })
  }`
  yield* ensurePackageOffers(DemoPlatformWorkspace.id, demoTime(5)).pipe(Effect.provide(IdsSequence("0190ad00")))
  const campaigns: ReadonlyArray<DemoCampaign> = Object.values(DemoAdCampaigns)
  yield* sql`INSERT INTO ad_campaigns ${
    sql.insert(campaigns.map((c) => ({
      id: c.id,
      public_id: c.publicId,
      workspace_id: DemoWorkspaces[c.workspace].id,
      agent_id: c.agent === null ? null : DemoAgents[c.agent]!.id,
      order_id: c.order,
      package_version_id: DemoAdPackageVersions[c.packageVersion].id,
      name: c.name,
      destination_url: `https://${c.workspace}.example/campaigns/${c.id.slice(-2)}`,
      state: c.state,
      start_at: demoTime(c.startDay),
      end_at: demoTime(c.startDay + DemoAdPackageVersions[c.packageVersion].durationDays),
      targets: JSON.stringify([
        { dimension: "NETWORK", value: "base", exclude: false },
        { dimension: "COUNTRY", value: "KP", exclude: true }
      ]),
      impressions: String(c.metrics[0]),
      clicks: String(c.metrics[1]),
      unique_visitors: String(c.metrics[2]),
      created_by: c.workspace === "acme" ? DemoAccounts.owner.id : DemoAccounts.outsider.id,
      version: c.version,
      created_at: demoTime(c.day),
      updated_at: demoTime(c.day + 1)
    })))
  }`
  yield* sql`INSERT INTO ad_creatives ${
    sql.insert(campaigns.map((c) => ({
      id: c.creativeId,
      campaign_id: c.id,
      revision: 1,
      kind: c.image === true ? "IMAGE" : "TEXT",
      state: c.creativeState,
      headline: c.image === true ? null : `${c.name}: see what's new`,
      body: c.image === true ? null : "Agents that do the research for you.",
      storage_ref: c.image === true ? `media/ads/${c.creativeId}.png` : null,
      media_type: c.image === true ? "image/png" : null,
      width_pixels: c.image === true ? 300 : null,
      height_pixels: c.image === true ? 250 : null,
      size_bytes: c.image === true ? "48213" : null,
      sha256: c.image === true ? "9f".repeat(32) : null,
      alt_text: c.image === true ? "Acme winter banner" : null,
      created_at: demoTime(c.day)
    })))
  }`
})
