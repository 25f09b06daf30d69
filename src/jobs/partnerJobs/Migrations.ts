/**
 * The partnerJobs area's migrations, by id (`NNNN_name`, global and ordered across areas): the
 * same record is its Area.ts `migrations` and an entry of `src/db/migrate.ts`, which imports
 * this light module (SQL only) rather than the area's HTTP layers.
 */
import type { Migrations } from "../../Area.js"
import jobBoard from "./migrations/0058_job_board.js"

/** The partnerJobs area's migrations, by id. */
export const migrations: Migrations = {
  "0058_job_board": jobBoard
}
