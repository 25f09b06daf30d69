/**
 * Demo data of the commerce area, and its seed step (run by `demo/seed.ts` in the order of
 * `src/areas.ts`).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAgents } from "../agents/seed.js"
import { demoTime, DemoNetworks, DemoAssets, demoId as id } from "../common.js"
import { DemoOffers } from "../services/seed.js"
import { DemoWorkspaces } from "../workspaces/seed.js"

export const DemoOrders = [
  {
    id: id(9, 1), number: "ORD-2026-0001", workspace: "acme", agent: 0, state: "ACTIVE", product: ["RESEARCH_PRO", "Pro research plan"],
    asset: "usdc", subtotal: "49000000", discount: "4900000", total: "44100000", day: 30, paid: true,
    benefit: { decisionId: id(10, 1), benefitPolicyVersion: 2, tierPolicyVersion: 1, tierCode: "GOLD", multiplierPpm: 1_100_000, discountBps: 1000 }
  },
  {
    id: id(9, 2), number: "ORD-2026-0002", workspace: "acme", agent: null, state: "PAYMENT_PENDING", product: ["AD_STRIP", "Strip ad placement"],
    asset: "sol", subtotal: "2500000000", discount: "0", total: "2500000000", day: 40, paid: false, benefit: null
  },
  {
    id: id(9, 3), number: "ORD-2026-0003", workspace: "outsider", agent: null, state: "PAID", product: ["RESEARCH_STARTER", "Starter research plan"],
    asset: "usdc", subtotal: "9000000", discount: "0", total: "9000000", day: 41, paid: true, benefit: null
  },
  // ad package orders (demo/growth/ads/seed.ts): a paid one no campaign uses yet (the create example),
  // one whose payment is only observed, and the one funding the ACTIVE demo campaign
  {
    id: id(9, 4), number: "ORD-2026-0004", workspace: "acme", agent: 0, state: "PAID", product: ["AD_STRIP", "Strip ad placement"],
    asset: "usdc", subtotal: "150000000", discount: "0", total: "150000000", day: 44, paid: true, benefit: null
  },
  {
    id: id(9, 5), number: "ORD-2026-0005", workspace: "acme", agent: null, state: "PAYMENT_OBSERVED", product: ["AD_INLINE", "Inline ad placement"],
    asset: "usdc", subtotal: "60000000", discount: "0", total: "60000000", day: 45, paid: false, benefit: null
  },
  {
    id: id(9, 6), number: "ORD-2026-0006", workspace: "acme", agent: 0, state: "ACTIVE", product: ["AD_STRIP", "Strip ad placement"],
    asset: "usdc", subtotal: "150000000", discount: "0", total: "150000000", day: 35, paid: true, benefit: null
  },
  // a paid square ad order funding the demo's DRAFT campaign that is submitted for review (Growth_SubmitAdCampaign)
  {
    id: id(9, 0x47), number: "ORD-2026-0047", workspace: "acme", agent: null, state: "PAID", product: ["AD_SQUARE", "Square ad placement"],
    asset: "usdc", subtotal: "90000000", discount: "0", total: "90000000", day: 46, paid: true, benefit: null
  },
  // the outsider's unpaid order of Acme's published Pro plan (the cancel example)
  {
    id: id(9, 7), number: "ORD-2026-0007", workspace: "outsider", agent: 0, state: "PAYMENT_PENDING", product: ["PRO", "Pro research plan"],
    asset: "usdc", subtotal: "10000000", discount: "0", total: "10000000", day: 46, paid: false, benefit: null
  },
  // another unpaid order of the outsider's for Acme's Pro plan (the Commerce_CreatePayment example)
  {
    id: id(9, 8), number: "ORD-2026-0008", workspace: "outsider", agent: 0, state: "PAYMENT_PENDING", product: ["PRO", "Pro research plan"],
    asset: "usdc", subtotal: "10000000", discount: "0", total: "10000000", day: 47, paid: false, benefit: null
  }
] as const

/**
 * The offers (demo/services/seed.ts) the demo orders were placed for: Acme sells them, so Acme's
 * members read these orders and refund them. Orders not listed were placed for no offer.
 */
export const DemoOrderOffers: Readonly<Record<string, string>> = {
  [id(9, 3)]: DemoOffers.starter.id,
  [id(9, 7)]: DemoOffers.published.id
}

/** The rail of each demo order's payment: ADMIN for the outsider's paid order (a bank transfer, the refund example). */
const railOf = (o: (typeof DemoOrders)[number]) => o.id === id(9, 3) ? "ADMIN" : o.asset === "usdc" ? "X402" : "ONCHAIN"

const isActive = (o: (typeof DemoOrders)[number]) => o.state === "ACTIVE"
const seq = (prefix: string, n: number) => `${prefix}-0000-7000-8000-${(n + 1).toString(16).padStart(12, "0")}`

/** Version and lifecycle times of each demo order, as seeded. */
export const demoOrderLifecycle = (o: (typeof DemoOrders)[number]) => ({
  version: o.paid ? 3 : 1,
  paidAt: o.paid ? demoTime(o.day, 5) : null,
  activatedAt: isActive(o) ? demoTime(o.day, 6) : null,
  expiresAt: isActive(o) ? demoTime(o.day + 365) : null,
  createdAt: demoTime(o.day),
  updatedAt: demoTime(o.day, 6)
})

/** One payment per demo order: confirmed when the order is paid. */
export const DemoPayments = DemoOrders.map((o, i) => ({
  id: seq("0190000e", i),
  orderId: o.id,
  rail: railOf(o),
  state: o.paid ? "CONFIRMED" : "PENDING",
  units: o.total,
  transactionHash: o.paid && railOf(o) !== "ADMIN" ? `0x${(i + 1).toString(16).padStart(64, "a")}` : null,
  expiresAt: demoTime(o.day, 60),
  createdAt: demoTime(o.day, 1)
}))

/** One entitlement per ACTIVE demo order, for a year. */
export const DemoEntitlements = DemoOrders.filter(isActive).map((o, i) => ({
  id: seq("0190000f", i),
  orderId: o.id,
  code: o.product[0],
  effectiveFrom: demoTime(o.day, 6),
  effectiveUntil: demoTime(o.day + 365)
}))


/**
 * Inserts the demo orders with their payments and entitlements, inside the seed's transaction. Fails with `SqlError`.
 */
export const seedCommerce = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO orders ${
    sql.insert(DemoOrders.map((o) => {
      const lifecycle = demoOrderLifecycle(o)
      return {
        id: o.id,
        order_number: o.number,
        state: o.state,
        version: lifecycle.version,
        workspace_id: DemoWorkspaces[o.workspace].id,
        agent_id: o.agent === null ? null : DemoAgents[o.agent].id,
        product_code: o.product[0],
        product_name: o.product[1],
        network_id: DemoNetworks[DemoAssets[o.asset].network].id,
        asset_id: DemoAssets[o.asset].id,
        subtotal_units: o.subtotal,
        discount_units: o.discount,
        total_units: o.total,
        holder_benefit: o.benefit === null ? null : JSON.stringify(o.benefit),
        terms_version: 1,
        policy_version: 1,
        offer_id: DemoOrderOffers[o.id] ?? null,
        paid_at: lifecycle.paidAt,
        activated_at: lifecycle.activatedAt,
        expires_at: lifecycle.expiresAt,
        created_at: lifecycle.createdAt,
        updated_at: lifecycle.updatedAt
      }
    }))
  }`
  yield* sql`INSERT INTO payments ${
    sql.insert(DemoPayments.map((p) => ({
      id: p.id,
      order_id: p.orderId,
      rail: p.rail,
      state: p.state,
      units: p.units,
      transaction_intent_id: null,
      transaction_hash: p.transactionHash,
      expires_at: p.expiresAt,
      created_at: p.createdAt
    })))
  }`
  yield* sql`INSERT INTO entitlements ${
    sql.insert(DemoEntitlements.map((e) => ({
      id: e.id,
      order_id: e.orderId,
      code: e.code,
      state: "ACTIVE",
      source: "ORDER",
      effective_from: e.effectiveFrom,
      effective_until: e.effectiveUntil,
      policy_version: 1
    })))
  }`
})
