/**
 * The wallets area's migrations, by id (see `Migrations` in src/Area.ts): SQL only, no
 * HTTP layers, so `src/db/migrate.ts` imports this module too.
 */
import type { Migrations } from "../Area.js"
import walletRegistration from "./migrations/0041_wallet_registration.js"

/** The wallets area's own migrations (its first tables are in src/db/migrations/0009_wallets_trust.ts). */
export const migrations: Migrations = {
  "0041_wallet_registration": walletRegistration
}
