/**
 * The bounties area's migrations, by id (`NNNN_name`, global and ordered across areas): the
 * same record is its Area.ts `migrations` and an entry of `src/db/migrate.ts`, which imports
 * this light module (SQL only) rather than the area's HTTP layers.
 */
import type { Migrations } from "../../Area.js"
import bountyEscrowOutcomes from "./migrations/0040_bounty_escrow_outcomes.js"
import bountyLifecycle from "./migrations/0056_bounty_lifecycle.js"
import bountyWork from "./migrations/0057_bounty_work.js"

/** The bounties area's migrations, by id. */
export const migrations: Migrations = {
  "0040_bounty_escrow_outcomes": bountyEscrowOutcomes,
  "0056_bounty_lifecycle": bountyLifecycle,
  "0057_bounty_work": bountyWork
}
