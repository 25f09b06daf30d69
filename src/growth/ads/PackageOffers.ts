/**
 * Ad packages as offers of the platform's (spec §2.3, §2.5; docs/ads.md "Buying an ad
 * package"): a workspace buys a package like any offer, through its offer price
 * (`placeOrder` of src/commerce), and the order's product code is the package's code, which
 * Growth_CreateAdCampaign checks.
 *
 * {@link ensurePackageOffers} gives every ad package that has no offer yet its offer, in the
 * platform's workspace (`ADS_PLATFORM_WORKSPACE_ID`, `AdsSettings` of `Config.ts`):
 * - the workspace's service "Advertising" (no agent), made once;
 * - per package, a PUBLISHED offer (title = the package's name, slug = its code in lower case
 *   with `-`, `entitlement_code` = its code, pricing model FIXED, fulfillment policy 1, no
 *   entitlement end) with terms revision 1, linked by `ad_packages.offer_id`;
 * - per package version, one price of that offer (its version, asset, network and units,
 *   in effect from the version's creation with no end), linked by
 *   `ad_package_versions.offer_price_id`.
 *
 * It runs in each tick of the campaign lifecycle cron (`Lifecycle.ts`), so a package an
 * operator adds (rows in `ad_packages` and `ad_package_versions`) is for sale within a
 * minute; it makes nothing twice (it only fills links that are NULL).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Ids } from "../../../layers/Ids.js"

/** Name of the platform's service that holds the ad package offers. */
export const AdvertisingServiceName = "Advertising"

/**
 * Makes the missing offers and prices of the ad packages in `platformWorkspaceId` (see the
 * module docs) at `at`, in the caller's transaction. Returns the packages and versions it
 * linked. Does nothing when the workspace does not exist. Fails with `SqlError`.
 */
export const ensurePackageOffers = (platformWorkspaceId: string, at: Date) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const [workspace] = yield* sql`SELECT 1 FROM workspaces WHERE id = ${platformWorkspaceId}`
    if (workspace === undefined) return { packages: 0, versions: 0 }
    const missing = yield* sql<{ id: string; code: string; name: string }>`
      SELECT id, code, name FROM ad_packages WHERE offer_id IS NULL ORDER BY code FOR UPDATE`
    let packages = 0
    if (missing.length > 0) {
      const [existing] = yield* sql<{ id: string }>`
        SELECT id FROM services WHERE workspace_id = ${platformWorkspaceId} AND agent_id IS NULL
          AND name = ${AdvertisingServiceName} ORDER BY id LIMIT 1`
      const serviceId = existing?.id ?? (yield* ids.next)
      if (existing === undefined) {
        yield* sql`INSERT INTO services ${
          sql.insert({ id: serviceId, workspace_id: platformWorkspaceId, agent_id: null, name: AdvertisingServiceName })
        }`
      }
      for (const p of missing) {
        const offerId = yield* ids.next
        yield* sql`INSERT INTO service_offers ${
          sql.insert({
            id: offerId,
            service_id: serviceId,
            state: "PUBLISHED",
            version: 1,
            title: p.name,
            slug: p.code.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
            description: `${p.name}: an ad campaign of this package (placement, run length and price by package version).`,
            pricing_model: "FIXED",
            fulfillment_policy_version: 1,
            entitlement_code: p.code,
            published_at: at,
            created_at: at,
            updated_at: at
          })
        }`
        yield* sql`INSERT INTO service_offer_terms ${
          sql.insert({
            id: yield* ids.next,
            offer_id: offerId,
            revision: 1,
            terms_markdown: `# ${p.name}\n\nOne ad campaign of this package, shown after an administrator approves it, ` +
              "for the run length of the package version bought, from the campaign's start.",
            created_at: at
          })
        }`
        yield* sql`UPDATE ad_packages SET offer_id = ${offerId} WHERE id = ${p.id}`
        packages++
      }
    }
    const versions = yield* sql<{ id: string; offerId: string; version: number; assetId: string; networkId: string; units: string; createdAt: Date }>`
      SELECT v.id, p.offer_id AS "offerId", v.version, v.asset_id AS "assetId", a.network_id AS "networkId",
             v.price_units::text AS units, v.created_at AS "createdAt"
        FROM ad_package_versions v JOIN ad_packages p ON p.id = v.package_id JOIN assets a ON a.id = v.asset_id
       WHERE v.offer_price_id IS NULL AND p.offer_id IS NOT NULL
       ORDER BY v.package_id, v.version FOR UPDATE OF v`
    for (const v of versions) {
      const priceId = yield* ids.next
      yield* sql`INSERT INTO service_offer_prices ${
        sql.insert({
          id: priceId,
          offer_id: v.offerId,
          version: v.version,
          network_id: v.networkId,
          asset_id: v.assetId,
          units: v.units,
          effective_from: v.createdAt,
          effective_until: null,
          x402_resource_template: null
        })
      }`
      yield* sql`UPDATE ad_package_versions SET offer_price_id = ${priceId} WHERE id = ${v.id}`
    }
    return { packages, versions: versions.length }
  })
