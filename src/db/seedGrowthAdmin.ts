/** Inserts the issue-9 admin demo data (`demo/growthAdmin.ts`); runs inside the seed's transaction. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts, DemoAssets, demoId, demoTime, DemoWorkspaces } from "./demo.js"
import { DemoBounties, DemoDisputes, DemoEscrow, DemoJobSources, DemoTokenOperations } from "./demo/growthAdmin.js"

/** Fails with `SqlError`. */
export const seedGrowthAdmin = Effect.gen(function*() {
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
  yield* sql`INSERT INTO bounties ${
    sql.insert(Object.values(DemoBounties).map((b, i) => ({
      id: b.id,
      workspace_id: DemoWorkspaces.acme.id,
      title: b.title,
      state: b.state,
      asset_id: DemoAssets.usdc.id,
      escrow_units: b.escrowUnits,
      escrow_network: DemoEscrow.network,
      escrow_contract_address: DemoEscrow.contractAddress,
      escrow_wallet_id: DemoEscrow.walletId,
      version: b.version,
      created_at: demoTime(30 + i),
      updated_at: demoTime(50 + i)
    })))
  }`
  yield* sql`INSERT INTO bounty_disputes ${
    sql.insert(Object.values(DemoDisputes).map((d, i) => ({
      id: d.id,
      bounty_id: DemoBounties[d.bounty].id,
      state: d.state,
      opened_reason: "The client says the delivered work does not meet the acceptance criteria.",
      version: d.version,
      created_at: demoTime(50 + i),
      updated_at: demoTime(55 + i),
      resolved_at: d.state === "RESOLVED" ? demoTime(60) : null
    })))
  }`
  // the resolved dispute's command, with its audit event and escrow transaction intent
  const resolved = { audit: demoId(0x94, 1), intent: demoId(0x94, 2) }
  yield* sql`INSERT INTO admin_audit_events ${
    sql.insert({
      id: resolved.audit,
      actor_account_id: DemoAccounts.admin.id,
      action: "Jobs_ResolveBountyDispute",
      subject_kind: "bounty-dispute",
      subject_id: DemoDisputes.resolved.id,
      reason: "Provider never delivered; refunding the client in full.",
      detail: JSON.stringify({ resolution: "REFUND", unitsToProvider: "0", unitsToClient: DemoBounties.resolved.escrowUnits }),
      created_at: demoTime(60)
    })
  }`
  yield* sql`INSERT INTO escrow_transaction_intents ${
    sql.insert({
      id: resolved.intent,
      purpose: "BOUNTY_DISPUTE_RESOLUTION",
      network: DemoEscrow.network,
      contract_address: DemoEscrow.contractAddress,
      wallet_id: DemoEscrow.walletId,
      payload: JSON.stringify({ unitsToProvider: "0", unitsToClient: DemoBounties.resolved.escrowUnits }),
      state: "PREPARED",
      created_at: demoTime(60)
    })
  }`
  yield* sql`INSERT INTO dispute_resolutions ${
    sql.insert({
      id: demoId(0x94, 3),
      dispute_id: DemoDisputes.resolved.id,
      bounty_id: DemoBounties.resolved.id,
      command_hash: "demo-resolved-command-hash-0000000000000000",
      decision_digest: `0x${"0".repeat(64)}`,
      resolution: "REFUND",
      units_to_provider: "0",
      units_to_client: DemoBounties.resolved.escrowUnits,
      state: "REFUND_PENDING",
      audit_event_id: resolved.audit,
      transaction_intent_id: resolved.intent,
      created_at: demoTime(60)
    })
  }`
  yield* sql`INSERT INTO partner_job_sources ${
    sql.insert(Object.values(DemoJobSources).map((s, i) => {
      const syncing = s.state === "ACTIVE" || s.state === "DEGRADED"
      return {
        id: s.id,
        code: s.code,
        display_name: s.displayName,
        website_url: new URL(s.endpointUrl).origin,
        endpoint_url: s.endpointUrl,
        adapter_version: "feed-v1",
        response_schema_version: 1,
        poll_interval_seconds: s.pollIntervalSeconds,
        request_timeout_ms: s.requestTimeoutMs,
        state: s.state,
        // far enough ahead that no scheduled sync of the demo data runs unasked
        next_sync_at: syncing ? new Date("2030-01-01T00:00:00.000Z") : null,
        last_successful_sync_at: s.state === "ACTIVE" ? demoTime(120 + i) : demoTime(100 + i),
        failure_count: s.failureCount,
        last_failure: s.failureCount > 0 ? "timeout" : null,
        version: s.version,
        configuration_version: String(i + 1),
        updated_at: demoTime(120 + i)
      }
    }))
  }`
})
