/**
 * Loads the demo data set in one transaction: the reference data every area uses
 * (`demo/common.ts`: networks and assets), then each area's own (`DemoArea.seed` of
 * `demo/areas.ts`, its data in `demo/<area>/`, in the list's order).
 * Loading is skipped when the demo admin account already exists, so it is safe to run on
 * every start.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { demoAreas } from "./areas.js"
import { DemoAccounts } from "./accounts/seed.js"
import { DemoAssets, DemoNetworks } from "./common.js"

/** Loads the demo data unless present. Returns whether it loaded. Fails with `SqlError`. */
export const seedDemoData = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const present = yield* sql`SELECT 1 FROM accounts WHERE id = ${DemoAccounts.admin.id}`
  if (present.length > 0) return false
  yield* sql.withTransaction(Effect.gen(function*() {
    // the reference data every area uses
    yield* sql`INSERT INTO networks ${
      sql.insert(Object.values(DemoNetworks).map((n) => ({
        id: n.id,
        key: n.key,
        family: n.family,
        display_name: n.displayName,
        caip2: n.caip2
      })))
    } ON CONFLICT (key) DO NOTHING`
    yield* sql`INSERT INTO assets ${
      sql.insert(Object.values(DemoAssets).map((a) => ({
        id: a.id,
        network_id: DemoNetworks[a.network].id,
        symbol: a.symbol,
        decimals: a.decimals
      })))
    }`
    // then each area's own demo data, in the areas' order
    for (const area of demoAreas) {
      if (area.seed !== undefined) yield* area.seed
    }
  }))
  return true
})
