/**
 * Demo data of the services area, and its seed step (run by `demo/seed.ts` in the order of
 * `src/areas.ts`).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAgents } from "../agents/seed.js"
import { demoTime, DemoNetworks, DemoAssets, demoId as id } from "../common.js"
import { DemoWorkspaces } from "../workspaces/seed.js"

export const DemoServices = {
  research: { id: id(7, 1), workspace: "acme", agent: 0, name: "Atlas Research API" },
  outsider: { id: id(7, 2), workspace: "outsider", agent: null, name: "Outsider Tool" }
} as const

/**
 * Offers. `price`/`terms` say whether the offer has a current price and a terms
 * revision; only DRAFT, REVIEW or PAUSED offers with both can be published.
 */
export const DemoOffers = {
  /** Publishable; used by the README walk-through and the demo manifest. */
  starter: { id: id(8, 1), service: "research", state: "DRAFT", version: 1, slug: "starter", title: "Starter research plan", price: true, terms: true },
  /** Already published: publishing again is a state conflict. */
  published: { id: id(8, 2), service: "research", state: "PUBLISHED", version: 3, slug: "pro", title: "Pro research plan", price: true, terms: true },
  /** No price: not publishable. */
  unpriced: { id: id(8, 3), service: "research", state: "DRAFT", version: 1, slug: "enterprise", title: "Enterprise research plan", price: false, terms: true },
  /** Publishable from REVIEW at version 2. */
  review: { id: id(8, 4), service: "research", state: "REVIEW", version: 2, slug: "team", title: "Team research plan", price: true, terms: true },
  /** Publishable from PAUSED. */
  paused: { id: id(8, 5), service: "research", state: "PAUSED", version: 4, slug: "legacy", title: "Legacy research plan", price: true, terms: true },
  /** Publishable from DRAFT; spare for tests. */
  spare: { id: id(8, 6), service: "research", state: "DRAFT", version: 1, slug: "trial", title: "Trial research plan", price: true, terms: true },
  /** In the outsider's workspace: invisible to Acme members. */
  foreign: { id: id(8, 7), service: "outsider", state: "DRAFT", version: 1, slug: "outsider", title: "Outsider plan", price: true, terms: true }
} as const


/**
 * Inserts the demo services and offers with their terms and prices, inside the seed's transaction. Fails with `SqlError`.
 */
export const seedServices = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO services ${
    sql.insert(Object.values(DemoServices).map((s) => ({
      id: s.id,
      workspace_id: DemoWorkspaces[s.workspace].id,
      agent_id: s.agent === null ? null : DemoAgents[s.agent].id,
      name: s.name
    })))
  }`
  const offers = Object.values(DemoOffers)
  yield* sql`INSERT INTO service_offers ${
    sql.insert(offers.map((o, i) => ({
      id: o.id,
      service_id: DemoServices[o.service].id,
      state: o.state,
      version: o.version,
      title: o.title,
      slug: o.slug,
      description: `${o.title} of ${DemoServices[o.service].name}.`,
      pricing_model: "FIXED",
      fulfillment_policy_version: 1,
      published_at: o.state === "PUBLISHED" ? demoTime(5) : null,
      created_at: demoTime(3, i),
      updated_at: demoTime(3, i)
    })))
  }`
  yield* sql`INSERT INTO service_offer_terms ${
    sql.insert(offers.filter((o) => o.terms).map((o, i) => ({
      id: `0190000c-0000-7000-8000-${(i + 1).toString(16).padStart(12, "0")}`,
      offer_id: o.id,
      revision: 1,
      terms_markdown: `# Terms of ${o.title}\n\nDelivered as described; refunds within 7 days.`,
      created_at: demoTime(3)
    })))
  }`
  yield* sql`INSERT INTO service_offer_prices ${
    sql.insert(offers.filter((o) => o.price).map((o, i) => ({
      id: `0190000d-0000-7000-8000-${(i + 1).toString(16).padStart(12, "0")}`,
      offer_id: o.id,
      version: 1,
      network_id: DemoNetworks.base.id,
      asset_id: DemoAssets.usdc.id,
      units: String(5_000_000 * (i + 1)),
      effective_from: demoTime(3),
      effective_until: null,
      x402_resource_template: i === 0 ? "https://api.atlas.example/x402/{offerId}" : null
    })))
  }`
})
