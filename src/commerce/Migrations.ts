/**
 * The commerce area's migrations, by id (`NNNN_name`, global and ordered across areas): the
 * same record is its Area.ts `migrations` and an entry of `src/db/migrate.ts`, which imports this
 * light module (SQL only) rather than the area's HTTP layers.
 */
import type { Migrations } from "../Area.js"
import settlement from "./migrations/0044_commerce_settlement.js"

/** The commerce area's migrations, by id. */
export const migrations: Migrations = {
  "0044_commerce_settlement": settlement
}
