/**
 * Demo data of the token operations (spec §2.13) in several states, and its seed step
 * (run by `demo/seed.ts` in the areas' order). Id group 0x90 (and 0x9e-0x9f for references).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { demoId, demoId as id, DemoAssets, demoTime } from "../../common.js"

/** Token operations (spec §2.13): [kind, state, units, quote units or null, requested day]. */
export const DemoTokenOperations = [
  { id: id(0x90, 1), kind: "BUYBACK", state: "RECONCILED", units: "125000000", quoteUnits: "2500000000", days: 20, summary: "Weekly buyback from protocol revenue" },
  { id: id(0x90, 2), kind: "BURN", state: "SUBMITTED", units: "50000000", quoteUnits: null, days: 40, summary: "Burn of bought-back tokens" },
  { id: id(0x90, 3), kind: "REWARD", state: "APPROVAL_REQUIRED", units: "7500000", quoteUnits: null, days: 60, summary: "Top-agent monthly rewards" },
  { id: id(0x90, 4), kind: "TREASURY_TRANSFER", state: "PLANNED", units: "1000000000", quoteUnits: null, days: 80, summary: "Treasury rebalance to cold wallet" },
  { id: id(0x90, 5), kind: "COMMISSION_PAYOUT", state: "FAILED", units: "3300000", quoteUnits: null, days: 90, summary: "Referral commission payout" }
] as const

/** Inserts the demo token operations. Fails with `SqlError`. */
export const seedTokenOperations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO token_operations ${
    sql.insert(DemoTokenOperations.map((o, i) => {
      const approved = o.state !== "PLANNED" && o.state !== "APPROVAL_REQUIRED"
      return {
        id: o.id,
        kind: o.kind,
        state: o.state,
        asset_id: DemoAssets.usdc.id,
        units: o.units,
        quote_asset_id: o.quoteUnits === null ? null : DemoAssets.sol.id,
        quote_units: o.quoteUnits,
        source: "treasury:hot",
        destination: o.kind === "BURN" ? "0x000000000000000000000000000000000000dEaD" : "treasury:cold",
        transaction_intent_id: o.state === "SUBMITTED" || o.state === "RECONCILED" ? demoId(0x9f, i + 1) : null,
        journal_entry_id: o.state === "RECONCILED" ? demoId(0x9e, 1) : null,
        evidence_ref: o.state === "RECONCILED" ? "base:0x9f2c…e41" : null,
        policy_version: 1,
        public_summary: o.summary,
        failure_code: o.state === "FAILED" ? "INSUFFICIENT_FUNDS" : null,
        requested_at: demoTime(o.days),
        approved_at: approved ? demoTime(o.days, 30) : null,
        reconciled_at: o.state === "RECONCILED" ? demoTime(o.days + 1) : null,
        version: approved ? 3 : 1
      }
    }))
  }`
})
