/**
 * The services area's migrations, by id (`NNNN_name`, global and ordered across areas): the
 * same record is its Area.ts `migrations` and an entry of `src/db/migrate.ts`, which imports
 * this light module (SQL only) rather than the area's HTTP layers.
 */
import type { Migrations } from "../Area.js"
import serviceOffers from "./migrations/0043_service_offers.js"

/** The services area's own migrations (its first tables are in src/db/migrations/0001_init.ts). */
export const migrations: Migrations = {
  "0043_service_offers": serviceOffers
}
