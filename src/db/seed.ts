/**
 * Loads the demo data set in one transaction: the core data every area builds on
 * (`demo.ts`: accounts, workspaces, agents and identities, offers, orders, protocols,
 * API keys), then each area's own (`Area.seed` of `src/areas.ts`, in the list's order).
 * Loading is skipped when the demo admin account already exists, so it is safe to run on
 * every start.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Auth, tokenHash } from "../../layers/Auth.js"
import { hashPassword } from "../../layers/Password.js"
import type { Area } from "../Area.js"
import { areas } from "../areas.js"
import { canonicalLocator } from "../identity/Locator.js"
import {
  DemoAccounts,
  DemoAgentWorkspaces,
  DemoAgents,
  DemoApiKeys,
  DemoAssets,
  DemoFavorites,
  DemoIdentities,
  DemoInvitations,
  DemoMemberships,
  DemoNetworks,
  DemoOffers,
  DemoEntitlements,
  demoOrderLifecycle,
  DemoOrders,
  DemoOtherSession,
  DemoPayments,
  DemoProtocols,
  DemoServices,
  demoTime,
  DemoWorkspaces
} from "./demo.js"

const t0 = demoTime(0)

/** Loads the demo data unless present. Returns whether it loaded. Fails with `SqlError`. */
export const seedDemoData = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const auth = yield* Auth
  const present = yield* sql`SELECT 1 FROM accounts WHERE id = ${DemoAccounts.admin.id}`
  if (present.length > 0) return false
  const hashes = yield* Effect.forEach(Object.values(DemoAccounts), (a) => hashPassword(a.password), { concurrency: 4 })

  yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`INSERT INTO accounts ${
      sql.insert(Object.values(DemoAccounts).map((a, i) => ({
        id: a.id,
        email: a.email,
        display_name: a.displayName,
        password_hash: hashes[i]!,
        is_admin: a.isAdmin,
        created_at: t0
      })))
    }`
    yield* sql`INSERT INTO sessions ${
      sql.insert({
        id: DemoOtherSession.id,
        account_id: DemoAccounts[DemoOtherSession.account].id,
        token_hash: tokenHash(`unusable-demo-session-${DemoOtherSession.id}`),
        csrf_hash: tokenHash(`unusable-demo-csrf-${DemoOtherSession.id}`),
        user_agent: "Demo browser on another device",
        created_at: demoTime(DemoOtherSession.days),
        authenticated_at: demoTime(DemoOtherSession.days),
        last_seen_at: demoTime(DemoOtherSession.days),
        expires_at: DemoOtherSession.expires
      })
    }`
    yield* sql`INSERT INTO workspaces ${
      sql.insert(Object.values(DemoWorkspaces).map((w, i) => ({
        id: w.id,
        name: w.name,
        slug: w.slug,
        state: "ACTIVE",
        locked: w.locked,
        version: 1,
        created_at: demoTime(1 + i),
        updated_at: demoTime(1 + i)
      })))
    }`
    yield* sql`INSERT INTO workspace_members ${
      sql.insert(DemoMemberships.map(([w, a, role, isOwner, isDefault], i) => ({
        workspace_id: DemoWorkspaces[w].id,
        account_id: DemoAccounts[a].id,
        role,
        state: "ACTIVE",
        is_workspace_owner: isOwner,
        is_default: isDefault,
        accepted_at: demoTime(2, i),
        version: 1,
        created_at: demoTime(2, i)
      })))
    }`
    yield* sql`INSERT INTO workspace_invitations ${
      sql.insert(DemoInvitations.map((inv) => ({
        id: inv.id,
        workspace_id: DemoWorkspaces[inv.workspace].id,
        recipient_email: inv.email,
        role: inv.role,
        state: inv.state,
        invited_by: DemoAccounts.owner.id,
        expires_at: demoTime(inv.days + 14),
        revoked_at: inv.state === "REVOKED" ? demoTime(inv.days + 1) : null,
        version: inv.state === "PENDING" ? 1 : 2,
        created_at: demoTime(inv.days)
      })))
    }`
    yield* sql`INSERT INTO networks ${
      sql.insert(Object.values(DemoNetworks).map((n) => ({ id: n.id, key: n.key, family: n.family, display_name: n.displayName })))
    }`
    yield* sql`INSERT INTO assets ${
      sql.insert(Object.values(DemoAssets).map((a) => ({
        id: a.id,
        network_id: DemoNetworks[a.network].id,
        symbol: a.symbol,
        decimals: a.decimals
      })))
    }`
    yield* sql`INSERT INTO agents ${
      sql.insert(DemoAgents.map((a, i) => ({
        id: a.id,
        canonical_slug: a.slug,
        name: a.name,
        rank: a.rank,
        tagline: a.tagline,
        description: `${a.name}: an agent of the demo directory.`,
        star_count: a.stars,
        verification_state: a.state,
        listed_at: demoTime(i)
      })))
    }`
    yield* sql`INSERT INTO agent_identities ${
      sql.insert(DemoIdentities.map((i, n) => ({
        id: i.id,
        agent_id: DemoAgents[i.agent].id,
        family: i.family,
        kind: i.kind,
        network: i.network,
        scope: i.scope,
        native_id: i.nativeId,
        locator: canonicalLocator(i),
        binding: i.binding,
        created_at: demoTime(6, n)
      })))
    }`
    yield* sql`INSERT INTO favorite_agents ${
      sql.insert(DemoFavorites.map(([account, agent, day]) => ({
        account_id: DemoAccounts[account].id,
        agent_id: DemoAgents[agent].id,
        created_at: demoTime(day)
      })))
    }`
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
    yield* sql`INSERT INTO protocols ${
      sql.insert(DemoProtocols.map((p, i) => ({ key: p.key, name: p.name, status: p.status, position: i + 1, features: "{}" })))
    }`
    for (const p of DemoProtocols) {
      yield* sql`UPDATE protocols SET features = ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(p.features)}::jsonb))
                 WHERE key = ${p.key}`
    }
    for (const [name, k] of Object.entries(DemoApiKeys)) {
      yield* auth.issueApiKey({
        id: k.id,
        workspaceId: DemoWorkspaces.acme.id,
        scopes: k.scopes,
        environment: k.environment,
        state: k.state,
        expiresAt: k.expired ? demoTime(100) : null,
        allowedOrigins: k.allowedOrigins,
        name: `Demo ${name} key`,
        key: k.key
      })
    }
    for (const a of DemoAgentWorkspaces) {
      yield* sql`UPDATE agents SET workspace_id = ${DemoWorkspaces[a.workspace].id} WHERE id = ${a.agent}`
    }
    // then each area's own demo data, in the areas' order
    for (const area of areas as ReadonlyArray<Area>) {
      if (area.seed !== undefined) yield* area.seed
    }
  }))
  return true
})
