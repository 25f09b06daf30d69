/**
 * The growth/ads area's migrations, by id (`NNNN_name`, global and ordered across areas): the
 * same record is its Area.ts `migrations` and an entry of `src/db/migrate.ts`, which imports
 * this light module (SQL only) rather than the area's HTTP layers.
 */
import type { Migrations } from "../../Area.js"
import adCampaigns from "./migrations/0014_ad_campaigns.js"
import adPackageOffers from "./migrations/0047_ad_package_offers.js"

/** The growth/ads area's migrations, by id. */
export const migrations: Migrations = {
  "0014_ad_campaigns": adCampaigns,
  "0047_ad_package_offers": adPackageOffers
}
