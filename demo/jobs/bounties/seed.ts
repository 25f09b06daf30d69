/**
 * Demo data of the bounties: bounties in escrow with disputes in every state, the resolved one's
 * command with its audit event and escrow intent; bounties in each state of the lifecycle with the
 * workspace wallets they are funded from and paid to; and its seed step. Id groups 0x91-0x92, 0x94-0x95.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts } from "../../accounts/seed.js"
import { DemoAssets, demoId, demoId as id, DemoNetworks, demoTime } from "../../common.js"
import { DemoAgents } from "../../agents/seed.js"
import { DemoWorkspaces } from "../../workspaces/seed.js"

/**
 * Escrow contract and funding wallet of the demo bounties (Base, CAIP-2 `eip155:8453`), and the
 * payout address of their claimant (the outsider's workspace, operating Cobalt).
 */
export const DemoEscrow = {
  network: "eip155:8453",
  contractAddress: "0x5b1e5c0ffee0000000000000000000000000b0a7",
  walletId: id(0x91, 100),
  payoutAddress: "0x5555555555555555555555555555555555555555"
} as const

/** The workspace wallet on Base of the bounty demo: the claimant's payout wallet (outsider). */
export const DemoBountyWallets = {
  outsider: { id: id(0x95, 101), owner: "outsider", workspace: "outsider", address: DemoEscrow.payoutAddress }
} as const

/** The agent the outsider's workspace claims bounties with (Cobalt). */
export const DemoClaimantAgent = DemoAgents[2].id

/**
 * Bounties of the lifecycle (docs/bounties.md), posted by acme, in the states the demo manifest's
 * requests start from; the claimed ones are the outsider's (Cobalt). Id group 0x95.
 */
export const DemoWorkBounties = {
  draft: { id: id(0x95, 1), title: "Summarise 500 agent cards", state: "FUNDING_PENDING", version: 1 },
  cancellable: { id: id(0x95, 2), title: "Draft a logo brief", state: "FUNDING_PENDING", version: 1 },
  open: { id: id(0x95, 3), title: "Write an MCP server for a weather API", state: "OPEN", version: 2 },
  claimed: { id: id(0x95, 4), title: "Port the SDK examples to Python", state: "CLAIMED", version: 3 },
  submitted: { id: id(0x95, 5), title: "Benchmark three embedding models", state: "SUBMITTED", version: 4 },
  toReject: { id: id(0x95, 6), title: "Translate the onboarding mails", state: "SUBMITTED", version: 4 },
  rejected: { id: id(0x95, 7), title: "Tag 1,000 agents by protocol", state: "REJECTED", version: 5 }
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

/** The lifecycle's demo bounties and the workspace wallet they are paid to. */
const seedWorkBounties = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallets ${
    sql.insert(Object.values(DemoBountyWallets).map((w, i) => ({
      id: w.id,
      owner_account_id: DemoAccounts[w.owner].id,
      network_id: DemoNetworks.base.id,
      address: w.address,
      workspace_id: DemoWorkspaces[w.workspace].id,
      created_at: demoTime(29, i)
    })))
  }`
  const farDeadline = new Date("2030-01-01T00:00:00.000Z")
  for (const [i, b] of Object.values(DemoWorkBounties).entries()) {
    const funded = b.state !== "FUNDING_PENDING"
    const claimed = !["FUNDING_PENDING", "OPEN"].includes(b.state)
    const delivered = b.state === "SUBMITTED" || b.state === "REJECTED"
    yield* sql`INSERT INTO bounties (id, workspace_id, title, description, acceptance_criteria, state, asset_id, escrow_units,
        escrow_network, escrow_contract_address, escrow_wallet_id, required_skills, required_protocols, deadline_at,
        posted_by_account_id, funded_at, claimant_workspace_id, claimant_agent_id, claimed_at, delivery_due_at, payout_address,
        delivery, submitted_at, rejection_reasons, rejected_at, claim_count, version, created_at, updated_at)
      VALUES (${b.id}, ${DemoWorkspaces.acme.id}, ${b.title}, ${`${b.title}: the brief, the inputs and the expected output.`},
        'A pull request or an archive that passes the checks listed in the brief.', ${b.state}, ${DemoAssets.usdc.id}, '50000000',
        ${DemoEscrow.network}, ${DemoEscrow.contractAddress}, ${funded ? DemoEscrow.walletId : null},
        ARRAY['python', 'mcp'], ARRAY['mcp'], ${farDeadline}, ${DemoAccounts.owner.id}, ${funded ? demoTime(31, i) : null},
        ${claimed ? DemoWorkspaces.outsider.id : null}, ${claimed ? DemoClaimantAgent : null}, ${claimed ? demoTime(32, i) : null},
        ${claimed ? farDeadline : null}, ${claimed ? DemoEscrow.payoutAddress : null},
        ${delivered ? JSON.stringify({ message: "Done: see the pull request.", links: ["https://example.com/pr/1"], artifacts: [] }) : null}::jsonb,
        ${delivered ? demoTime(400, i) : null},
        ${b.state === "REJECTED" ? JSON.stringify(["The benchmark misses the latency figures."]) : null}::jsonb,
        ${b.state === "REJECTED" ? demoTime(400, i + 10) : null}, ${claimed ? 1 : 0}, ${b.version},
        ${demoTime(30, i)}, ${demoTime(33, i)})`
  }
})

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
      claimant_workspace_id: DemoWorkspaces.outsider.id,
      claimant_agent_id: DemoClaimantAgent,
      claimed_at: demoTime(31 + i),
      delivery_due_at: new Date("2030-01-01T00:00:00.000Z"),
      payout_address: DemoEscrow.payoutAddress,
      version: b.version,
      created_at: demoTime(30 + i),
      updated_at: demoTime(50 + i)
    })))
  }`
  yield* seedWorkBounties
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
