/**
 * Ad packages are offers of the platform's (spec §2.3, §2.5): each package is sold as one
 * PUBLISHED service offer of the platform's advertising service (`ad_packages.offer_id`),
 * each package version as one price of that offer (`ad_package_versions.offer_price_id`), so
 * a workspace buys a package like any offer and the order's product code is the package's
 * code (the offer's `entitlement_code`). Both are NULL until the offer is made
 * (src/growth/ads/PackageOffers.ts, docs/ads.md).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE ad_packages ADD COLUMN offer_id uuid UNIQUE REFERENCES service_offers(id);
ALTER TABLE ad_package_versions ADD COLUMN offer_price_id uuid UNIQUE REFERENCES service_offer_prices(id);
`)
})
