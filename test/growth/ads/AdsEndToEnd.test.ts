/**
 * Ads end to end, and paid orders as evidence, through the HTTP stack on the test server
 * (its engine runs the lifecycle cron on the manual clock):
 * - a workspace buys an ad package like any offer (the package's platform offer price:
 *   placeOrder, openPayment on the ADMIN rail, confirmPayment of src/commerce), creates a
 *   campaign from the order, submits it (Growth_SubmitAdCampaign), an admin approves it, the
 *   next tick makes it ACTIVE, Growth_ServeAd serves it (targets honoured) with a token that
 *   records an impression (Growth_RecordAdEvent);
 * - Growth_SubmitAdCampaign's refusals and an IMAGE creative by reference;
 * - Social_IssueAnalyticsContextToken's token is accepted by Social_IngestProductEvent;
 * - a paid order for an agent's offer makes the buyer workspace's feedback VERIFIED_INTERACTION,
 *   counts in the agent's and the directory's daily stats and in the REVENUE and SERVICE exports.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { DemoAgents } from "../../../demo/agents/seed.js"
import { DemoAdCampaigns, DemoAdPackages, DemoAdPackageVersions, DemoAdOrders } from "../../../demo/growth/ads/seed.js"
import { DemoOffers } from "../../../demo/services/seed.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { DemoAccounts } from "../../../demo/accounts/seed.js"
import { confirmPayment, openPayment, placeOrder } from "../../../src/commerce/index.js"
import { IdsLive } from "../../../layers/Ids.js"
import { DemoPlatformWorkspace } from "../../../demo/growth/ads/seed.js"
import { ensurePackageOffers } from "../../../src/growth/ads/PackageOffers.js"
import { DemoAssets } from "../../../demo/common.js"
import { call, expectProblem, type Session, signIn } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { until, waitFor } from "../../support/waitFor.js"
import { awaitExport } from "../../social/analytics/support.js"

// no platform workspace: the lifecycle tick makes no offers, so the test below makes them itself
const server = makeTestServer({ ads: { platformWorkspaceId: Option.none() } })
const minute = 60_000

/** Buys `offerPriceId` for `workspace` and pays it on the ADMIN rail, in one transaction on the server's clock. */
const buy = (workspaceId: string, offerPriceId: string, buyerAccountId: string, reference: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      const order = yield* placeOrder({ workspaceId, offerPriceId, quantity: 1, buyerAccountId })
      const payment = yield* openPayment({
        orderId: order.id,
        rail: "ADMIN",
        reference,
        transactionIntentId: null,
        expiresAt: new Date(TestEpoch.getTime() + 3_600_000)
      })
      yield* confirmPayment(payment.id, { transactionHash: null })
      return order
    }))
  }).pipe(Effect.provide(IdsLive), Effect.withClock(server.clock), Effect.orDie)

const orderRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ state: string; productCode: string; totalUnits: string }>`
      SELECT state, product_code AS "productCode", total_units::text AS "totalUnits" FROM orders WHERE id = ${id}`)
    .pipe(Effect.map(([r]) => r!), Effect.orDie)

const priceOfVersion = (versionId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string }>`SELECT offer_price_id AS id FROM ad_package_versions WHERE id = ${versionId}`)
    .pipe(Effect.map(([r]) => r!.id), Effect.orDie)

const campaignState = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ state: string }>`SELECT state FROM ad_campaigns WHERE id = ${id}`)
    .pipe(Effect.map(([r]) => r!.state), Effect.orDie)

const review = (admin: Session, id: string, expectedVersion: number) =>
  call("POST", `/api/v1/admin/ads/campaigns/${id}/review`, {
    session: admin,
    body: {
      decision: "APPROVE",
      expectedVersion,
      decisionCode: "POLICY_OK",
      publicDecision: "The campaign meets the ad policy.",
      privateDecision: "Checked the destination by hand.",
      dryRun: false,
      confirmation: `APPROVE ${id}`
    }
  })

const serve = (query: string) => call("GET", `/api/v1/ads/serve?${query}`)

const acme = DemoWorkspaces.acme.id

layer(server.layer)("ads end to end", (it) => {
  it.effect("purchase → create → submit → approve → ACTIVE → served with its targets → an impression recorded", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      // the package's offer is the platform's: bought like any offer
      const priceId = yield* priceOfVersion(DemoAdPackageVersions.stripV2.id)
      expect(priceId).toBeTypeOf("string")
      const order = yield* buy(acme, priceId, DemoAccounts.owner.id, "ads-e2e-1")
      expect(yield* orderRow(order.id)).toEqual({
        state: "ACTIVE",
        productCode: DemoAdPackages.strip.code,
        totalUnits: DemoAdPackageVersions.stripV2.priceUnits
      })

      const created = yield* call("POST", "/api/v1/ads/campaigns", {
        session: owner,
        body: {
          workspaceId: acme,
          orderId: order.id,
          packageVersionId: DemoAdPackageVersions.stripV2.id,
          name: "Atlas in German",
          destinationUrl: "https://acme.example/de",
          startAt: TestEpoch.toISOString(),
          headline: "Atlas spricht Deutsch",
          body: "Research agents for you.",
          targets: [
            { dimension: "LANGUAGE", value: "de" },
            { dimension: "COUNTRY", value: "FR", exclude: true }
          ]
        }
      })
      expect(created.status, created.text).toBe(201)
      const id = created.body.data.id as string
      expect(created.body.data).toMatchObject({ state: "DRAFT", version: 1, orderId: order.id })

      // not submitted, not served
      expect((yield* serve("placement=STRIP&language=de")).body.data?.campaignId).not.toBe(id)

      const submitted = yield* call("POST", `/api/v1/ads/campaigns/${id}/submit`, { session: owner, body: { expectedVersion: 1 } })
      expect(submitted.status, submitted.text).toBe(200)
      expect(submitted.body.data).toMatchObject({
        state: "SUBMITTED",
        version: 2,
        creative: { revision: 1, kind: "TEXT", state: "READY", headline: "Atlas spricht Deutsch" }
      })

      const approved = yield* review(yield* signIn("admin"), id, 2)
      expect(approved.status, approved.text).toBe(202)
      expect(approved.body.data.campaign).toMatchObject({ state: "APPROVED", version: 3 })
      server.clock.advance(minute + 5_000)
      yield* waitFor("campaign ACTIVE", until(campaignState(id), (s) => s === "ACTIVE", (s) => `still ${s}`), 20_000, 25)

      // served: fewest impressions first among those that fit the page
      const served = yield* serve("placement=STRIP&network=base&language=DE&country=DE&visitor=visitor-7")
      expect(served.status, served.text).toBe(200)
      expect(served.headers["cache-control"]).toBe("no-store")
      expect(served.body.data).toMatchObject({
        campaignId: id,
        placementKind: "STRIP",
        destinationUrl: "https://acme.example/de",
        visitor: "visitor-7",
        creative: { kind: "TEXT", state: "APPROVED", headline: "Atlas spricht Deutsch" }
      })
      // targets: another language, or an excluded country, serves the demo campaign (NETWORK base) instead
      expect((yield* serve("placement=STRIP&network=base&language=en")).body.data.campaignId).toBe(DemoAdCampaigns.active.id)
      expect((yield* serve("placement=STRIP&network=base&language=de&country=fr")).body.data.campaignId)
        .toBe(DemoAdCampaigns.active.id)
      // no language: its include target is not met; no network: the demo one's is not either
      const none = yield* serve("placement=STRIP")
      expect(none.status, none.text).toBe(200)
      expect(none.body.data).toBeNull()
      expect((yield* serve("placement=POPUP&language=de")).body.data).toBeNull()
      expectProblem(yield* serve("placement=BANNER"), 400)

      // the served token records the impression
      const recorded = yield* call("POST", "/api/v1/ads/events", { body: { token: served.body.data.token, kind: "IMPRESSION" } })
      expect(recorded.status, recorded.text).toBe(202)
      const fresh = yield* serve("placement=STRIP&language=de")
      expect(fresh.body.data.campaignId).toBe(id)
      expect(fresh.body.data.visitor).toMatch(/^v-/)
      const clicked = yield* call("POST", "/api/v1/ads/events", { body: { token: fresh.body.data.token, kind: "CLICK" } })
      expect(clicked.status, clicked.text).toBe(202)
      const list = yield* call("GET", "/api/v1/ads/campaigns", { session: owner })
      expect(list.body.data.find((c: { id: string }) => c.id === id).metrics).toEqual({
        impressions: "1",
        clicks: "1",
        uniqueVisitors: "1"
      })
    }))

  it.effect("a package an operator adds gets its platform offer and prices once; an order of it has the package's code", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pkg = "0190ffff-0000-7000-8000-0000000000b1"
      yield* sql`INSERT INTO ad_packages (id, code, name, placement_kind, created_at)
                 VALUES (${pkg}, 'AD_POPUP', 'Popup ad placement', 'POPUP', ${TestEpoch})`
      yield* sql`INSERT INTO ad_package_versions (id, package_id, version, asset_id, price_units, duration_days, created_at)
                 VALUES ('0190ffff-0000-7000-8000-0000000000b2', ${pkg}, 1, ${DemoAssets.usdc.id}, 75000000, 14, ${TestEpoch})`
      const ensure = sql.withTransaction(ensurePackageOffers(DemoPlatformWorkspace.id, TestEpoch)).pipe(Effect.provide(IdsLive))
      expect(yield* ensure).toEqual({ packages: 1, versions: 1 })
      expect(yield* ensure).toEqual({ packages: 0, versions: 0 })
      const [offer] = yield* sql<{ state: string; code: string; workspace: string; services: number }>`
        SELECT o.state, o.entitlement_code AS code, s.workspace_id AS workspace,
               (SELECT count(*)::int FROM services WHERE workspace_id = s.workspace_id) AS services
          FROM ad_packages p JOIN service_offers o ON o.id = p.offer_id JOIN services s ON s.id = o.service_id
         WHERE p.id = ${pkg}`
      expect(offer).toEqual({ state: "PUBLISHED", code: "AD_POPUP", workspace: DemoPlatformWorkspace.id, services: 1 })
      const priceId = yield* priceOfVersion("0190ffff-0000-7000-8000-0000000000b2")
      const order = yield* buy(DemoWorkspaces.team.id, priceId, DemoAccounts.member.id, "ads-popup-1")
      expect(yield* orderRow(order.id)).toEqual({ state: "ACTIVE", productCode: "AD_POPUP", totalUnits: "75000000" })
    }).pipe(Effect.orDie))

  it.effect("submit: refusals in order, an IMAGE creative by reference becomes the next revision", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const demoPaid = DemoAdOrders.paid
      const created = yield* call("POST", "/api/v1/ads/campaigns", {
        session: owner,
        body: {
          workspaceId: acme,
          orderId: demoPaid.id,
          packageVersionId: DemoAdPackageVersions.stripV2.id,
          name: "Atlas picture",
          destinationUrl: "https://acme.example/picture",
          startAt: new Date(TestEpoch.getTime() + 86_400_000).toISOString(),
          headline: "Atlas"
        }
      })
      expect(created.status, created.text).toBe(201)
      const id = created.body.data.id as string
      const submit = (session: Session, body: unknown) => call("POST", `/api/v1/ads/campaigns/${id}/submit`, { session, body })

      expectProblem(yield* submit(yield* signIn("outsider"), { expectedVersion: 1 }), 404, "ad-campaign-not-found")
      expectProblem(yield* submit(yield* signIn("admin"), { expectedVersion: 1 }), 403, "role-required") // a VIEWER of acme
      expectProblem(yield* submit(owner, { expectedVersion: 2 }), 409, "version-conflict")
      expectProblem(yield* submit(owner, { expectedVersion: 1, creative: { kind: "IMAGE", url: "https://cdn.example/a.png" } }), 400)

      const image = {
        kind: "IMAGE",
        url: "https://cdn.acme.example/ads/atlas.png",
        mediaType: "image/png",
        widthPixels: 728,
        heightPixels: 90,
        sizeBytes: 20480,
        sha256: "ab".repeat(32),
        altText: "Atlas research agents"
      }
      const done = yield* submit(owner, { expectedVersion: 1, creative: image })
      expect(done.status, done.text).toBe(200)
      expect(done.body.data).toMatchObject({
        state: "SUBMITTED",
        version: 2,
        creative: {
          revision: 2,
          kind: "IMAGE",
          state: "READY",
          headline: null,
          storageRef: image.url,
          mediaType: "image/png",
          widthPixels: 728,
          heightPixels: 90,
          sizeBytes: "20480",
          sha256: image.sha256,
          altText: image.altText
        }
      })
      expectProblem(yield* submit(owner, { expectedVersion: 2 }), 409, "invalid-state")

      // a draft without a paid order: the demo's DRAFT campaign has none
      const draft = DemoAdCampaigns.draft
      expectProblem(
        yield* call("POST", `/api/v1/ads/campaigns/${draft.id}/submit`, { session: owner, body: { expectedVersion: draft.version } }),
        409,
        "order-not-eligible"
      )
    }))

  it.effect("Social_IssueAnalyticsContextToken: a token ingestion accepts, for a listed agent only", () =>
    Effect.gen(function*() {
      const issued = yield* call("POST", "/api/v1/analytics/context-tokens", {
        body: { agentPublicId: DemoAgents[0].id, consent: ["traffic", "traffic"], visitor: "page-visitor-1" }
      })
      expect(issued.status, issued.text).toBe(201)
      expect(issued.body.data).toMatchObject({
        agentPublicId: DemoAgents[0].id,
        consent: ["traffic"],
        visitor: "page-visitor-1",
        // one hour after issue (whole seconds)
        expiresAt: new Date(Math.floor(server.clock.unsafeCurrentTimeMillis() / 1000) * 1000 + 3_600_000).toISOString()
      })
      const ingested = yield* call("POST", "/api/v1/analytics/events", {
        body: {
          contextToken: issued.body.data.contextToken,
          events: [
            { eventId: "0190ffff-0000-7000-8000-000000000001", name: "traffic.page_view", occurredAt: TestEpoch.toISOString() },
            { eventId: "0190ffff-0000-7000-8000-000000000002", name: "engagement.click", occurredAt: TestEpoch.toISOString() }
          ]
        }
      })
      expect(ingested.status, ingested.text).toBe(202)
      expect(ingested.body.data.accepted).toEqual([{ index: 0, eventId: "0190ffff-0000-7000-8000-000000000001", duplicate: false }])
      expect(ingested.body.data.rejected).toEqual([{ index: 1, eventId: "0190ffff-0000-7000-8000-000000000002", code: "CONSENT_REQUIRED" }])

      const anonymous = yield* call("POST", "/api/v1/analytics/context-tokens", { body: { consent: [] } })
      expect(anonymous.status, anonymous.text).toBe(201)
      expect(anonymous.body.data).toMatchObject({ agentPublicId: null, consent: [] })
      expect(anonymous.body.data.visitor).toMatch(/^v-/)
      expectProblem(
        yield* call("POST", "/api/v1/analytics/context-tokens", {
          body: { agentPublicId: "0190ffff-0000-7000-8000-0000000000aa", consent: ["traffic"] }
        }),
        404,
        "agent-not-found"
      )
      expectProblem(yield* call("POST", "/api/v1/analytics/context-tokens", { body: { consent: ["Traffic"] } }), 400)
    }))

  it.effect("a paid order for an agent's offer: the buyer's feedback VERIFIED_INTERACTION, stats and exports count it", () =>
    Effect.gen(function*() {
      const agent = DemoAgents[0].id
      const outsider = yield* signIn("outsider")
      const feedback = (expectedRevision?: number) =>
        call("POST", `/api/v1/agents/${agent}/feedback`, {
          session: outsider,
          body: {
            workspaceId: DemoWorkspaces.outsider.id,
            category: "VALUE",
            ratingPpm: 900_000,
            title: "Worth it",
            body: "Bought the pro plan.",
            ...(expectedRevision === undefined ? {} : { expectedRevision })
          }
        })
      const before = yield* feedback()
      expect(before.status, before.text).toBe(201)
      expect(before.body.data.authenticityState).toBe("UNVERIFIED")

      const directoryBefore = yield* call("GET", "/api/v1/stats/directory/daily/2026-06-01")
      expect(directoryBefore.status, directoryBefore.text).toBe(200)

      const sql = yield* SqlClient.SqlClient
      const [price] = yield* sql<{ id: string; units: string }>`
        SELECT id, units::text AS units FROM service_offer_prices WHERE offer_id = ${DemoOffers.published.id}`
      const order = yield* buy(DemoWorkspaces.outsider.id, price!.id, DemoAccounts.outsider.id, "evidence-1")
      expect(order.agentId).toBe(agent)
      expect((yield* orderRow(order.id)).state).toBe("ACTIVE")

      const after = yield* feedback(1)
      expect(after.status, after.text).toBe(200)
      expect(after.body.data).toMatchObject({ revision: 2, authenticityState: "VERIFIED_INTERACTION" })

      // daily stats (today, live)
      const agentDay = yield* call("GET", `/api/v1/stats/agents/${agent}/daily/2026-06-01`)
      expect(agentDay.status, agentDay.text).toBe(200)
      expect(agentDay.body.data.orders).toEqual({
        paid: "1",
        revenue: [{ assetId: order.assetId, symbol: "USDC", units: price!.units }]
      })
      const directory = yield* call("GET", "/api/v1/stats/directory/daily/2026-06-01")
      const paidBefore = Number(directoryBefore.body.data.orders.paid)
      expect(Number(directory.body.data.orders.paid)).toBe(paidBefore + 1)

      // REVENUE and SERVICE exports of the seller's agent
      const owner = yield* signIn("owner")
      for (const exportType of ["REVENUE", "SERVICE"] as const) {
        const requested = yield* call("POST", `/api/v1/agents/${agent}/analytics/exports`, {
          session: owner,
          body: { exportType, from: "2026-06-01", to: "2026-06-01", format: "JSONL" }
        })
        expect(requested.status, requested.text).toBe(202)
        expect(yield* awaitExport(requested.body.data.id)).toEqual({ state: "AVAILABLE", hasFile: true })
        const read = yield* call("GET", `/api/v1/agents/${agent}/analytics/exports/${requested.body.data.id}`, { session: owner })
        expect(read.body.data.rowCount).toBe("1")
        const file = yield* call("GET", "/api/v1/analytics/exports/download", {
          headers: { "x-download-token": read.body.data.downloadToken }
        })
        expect(file.status, file.text).toBe(200)
        const row = JSON.parse(file.text.trim())
        expect(row).toMatchObject({ orderId: order.id, orderNumber: order.orderNumber, state: "ACTIVE" })
        if (exportType === "REVENUE") expect(row).toMatchObject({ totalUnits: price!.units, symbol: "USDC" })
        else expect(row).toMatchObject({ entitlementState: "ACTIVE", offerId: DemoOffers.published.id })
      }
    }))
})
