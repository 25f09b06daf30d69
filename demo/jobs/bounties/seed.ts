/**
 * Demo data of the bounty disputes: bounties in escrow with disputes in every state, the
 * resolved one's command with its audit event and escrow intent; and its seed step. Id groups 0x91-0x92, 0x94.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts } from "../../accounts/seed.js"
import { DemoAssets, demoId, demoId as id, demoTime } from "../../common.js"
import { DemoWorkspaces } from "../../workspaces/seed.js"

/** Escrow contract and custody wallet of the demo bounties (Base, CAIP-2 `eip155:8453`). */
export const DemoEscrow = {
  network: "eip155:8453",
  contractAddress: "0x5b1e5c0ffee0000000000000000000000000b0a7",
  walletId: id(0x91, 100)
} as const

/** Bounties with escrowed USDC (6 decimals) in the acme workspace. */
export const DemoBounties = {
  release: { id: id(0x91, 1), title: "Index 10k agent cards", state: "DISPUTED", escrowUnits: "250000000", version: 3 },
  split: { id: id(0x91, 2), title: "Translate the docs to German", state: "DISPUTED", escrowUnits: "1000000", version: 2 },
  refund: { id: id(0x91, 3), title: "Benchmark five trading agents", state: "DISPUTED", escrowUnits: "40000000", version: 4 },
  resolved: { id: id(0x91, 4), title: "Audit the payment flow", state: "REFUND_PENDING", escrowUnits: "90000000", version: 5 },
  withdrawn: { id: id(0x91, 5), title: "Design an agent badge", state: "CLAIMED", escrowUnits: "15000000", version: 2 }
} as const
export type DemoBountyName = keyof typeof DemoBounties

/** One dispute per bounty: OPEN on the disputed ones, RESOLVED and WITHDRAWN on the others. */
export const DemoDisputes = {
  release: { id: id(0x92, 1), bounty: "release", state: "OPEN", version: 1 },
  split: { id: id(0x92, 2), bounty: "split", state: "OPEN", version: 2 },
  refund: { id: id(0x92, 3), bounty: "refund", state: "OPEN", version: 1 },
  resolved: { id: id(0x92, 4), bounty: "resolved", state: "RESOLVED", version: 2 },
  withdrawn: { id: id(0x92, 5), bounty: "withdrawn", state: "WITHDRAWN", version: 2 }
} as const satisfies Record<string, { readonly bounty: DemoBountyName; readonly [k: string]: unknown }>

/** Inserts the demo bounties, disputes and the resolved dispute's command. Fails with `SqlError`. */
export const seedBountyDisputes = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
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
})
