/**
 * Ad packages through the HTTP stack (docs/ads.md "Ad packages are offers of the platform's"):
 * Growth_ListAdPackages shows what a buyer can order and by which offer price; an admin's
 * Growth_CreateAdPackage and Growth_CreateAdPackageVersion put a package and its next version on
 * sale in their own transaction, so a buyer orders it at once (Commerce_CreateOrder) and the order's
 * product code is the package's code; the refusals name the field and rule.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { DemoAssets } from "../../../demo/common.js"
import { DemoAdPackages, DemoAdPackageVersions, DemoPlatformWorkspace } from "../../../demo/growth/ads/seed.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { Data } from "../../../schema/envelope.js"
import { AdPackage } from "../../../src/growth/ads/Schemas.js"
import { call, expectProblem, signIn } from "../../support/http.js"
import { makeTestServer } from "../../support/TestServer.js"
import { testConfig } from "../../support/config.js"

const server = makeTestServer({ ads: { ...testConfig().ads, platformWorkspaceId: Option.some(DemoPlatformWorkspace.id) } })
const decodeList = Schema.decodeUnknownSync(Data(Schema.Array(AdPackage)), { onExcessProperty: "error" })
const decodeOne = Schema.decodeUnknownSync(Data(AdPackage), { onExcessProperty: "error" })

const popup = {
  code: "AD_POPUP",
  name: "Popup ad placement",
  placementKind: "POPUP",
  assetPublicId: DemoAssets.usdc.id,
  priceUnits: "75000000",
  durationDays: 14
}

const listPackages = Effect.map(call("GET", "/api/v1/ads/packages"), (reply) => {
  expect(reply.status, reply.text).toBe(200)
  return decodeList(reply.body).data
})

layer(server.layer, { timeout: 120_000 })("Ad packages", (it) => {
  it.effect("the list shows every demo package with its versions on sale and the offer price to order each by", () =>
    Effect.gen(function*() {
      const packages = yield* listPackages
      expect(packages.map((p) => p.code)).toEqual(["AD_INLINE", "AD_SQUARE", "AD_STRIP"])
      const strip = packages.find((p) => p.id === DemoAdPackages.strip.id)!
      expect(strip.placementKind).toBe("STRIP")
      expect(strip.versions.map((v) => v.version)).toEqual([3, 2, 1])
      const v2 = strip.versions.find((v) => v.id === DemoAdPackageVersions.stripV2.id)!
      expect(v2).toMatchObject({ priceUnits: 150000000n, durationDays: 30, assetPublicId: DemoAssets.usdc.id, assetSymbol: "USDC", assetDecimals: 6 })
      // the wire: units as a decimal string, the offer price a price of the package's offer
      const raw = (yield* call("GET", "/api/v1/ads/packages")).body.data as ReadonlyArray<any>
      expect(raw.find((p) => p.code === "AD_STRIP").versions.find((v: any) => v.version === 2).priceUnits).toBe("150000000")
      const sql = yield* SqlClient.SqlClient
      const [price] = yield* sql<{ offerId: string; units: string }>`
        SELECT offer_id AS "offerId", units::text AS units FROM service_offer_prices WHERE id = ${v2.offerPriceId}`
      expect(price).toEqual({ offerId: strip.offerId, units: "150000000" })
    }))

  it.effect("an admin creates a package with its first version: listed and ordered at once, by its code", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const created = yield* call("POST", "/api/v1/admin/ads/packages", { session: admin, body: popup })
      expect(created.status, created.text).toBe(201)
      const pkg = decodeOne(created.body).data
      expect(pkg).toMatchObject({ code: "AD_POPUP", name: "Popup ad placement", placementKind: "POPUP" })
      expect(pkg.versions).toHaveLength(1)
      expect(pkg.versions[0]).toMatchObject({ version: 1, priceUnits: 75000000n, durationDays: 14 })
      expect((yield* listPackages).find((p) => p.code === "AD_POPUP")).toEqual(pkg)

      // the offer is the platform's, PUBLISHED, with terms, and an audit event records the creation
      const sql = yield* SqlClient.SqlClient
      const [offer] = yield* sql<{ state: string; workspaceId: string; code: string; terms: number }>`
        SELECT o.state, s.workspace_id AS "workspaceId", o.entitlement_code AS code,
               (SELECT count(*) FROM service_offer_terms t WHERE t.offer_id = o.id)::int AS terms
          FROM service_offers o JOIN services s ON s.id = o.service_id WHERE o.id = ${pkg.offerId}`
      expect(offer).toEqual({ state: "PUBLISHED", workspaceId: DemoPlatformWorkspace.id, code: "AD_POPUP", terms: 1 })
      const audits = yield* sql<{ action: string }>`
        SELECT action FROM audit_events WHERE target_type = 'ad_package' AND target_id = ${pkg.id}`
      expect(audits.map((a) => a.action)).toEqual(["ad_package.created"])

      // a buyer orders it by the listed offer price: the order is the package's
      const owner = yield* signIn("owner")
      const order = yield* call("POST", "/api/v1/orders", {
        session: owner,
        body: { offerPriceId: pkg.versions[0]!.offerPriceId, quantity: 1, workspaceId: DemoWorkspaces.acme.id }
      })
      expect(order.status, order.text).toBe(201)
      expect(order.body.data).toMatchObject({ state: "CREATED", totalUnits: "75000000" })
      const [row] = yield* sql<{ productCode: string }>`SELECT product_code AS "productCode" FROM orders WHERE id = ${order.body.data.id}`
      expect(row!.productCode).toBe("AD_POPUP")

      // the same code again: 409, nothing made
      expectProblem(yield* call("POST", "/api/v1/admin/ads/packages", { session: admin, body: { ...popup, name: "Another popup" } }), 409, "ad-package-code-taken")
      const [count] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ad_packages WHERE code = 'AD_POPUP'`
      expect(count!.n).toBe(1)
    }))

  it.effect("the next version is versioned on the newest one, on sale beside the earlier versions", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const id = DemoAdPackages.inline.id
      const body = { expectedVersion: 1, assetPublicId: DemoAssets.usdc.id, priceUnits: "80000000", durationDays: 30 }
      const next = yield* call("POST", `/api/v1/admin/ads/packages/${id}/versions`, { session: admin, body })
      expect(next.status, next.text).toBe(201)
      const pkg = decodeOne(next.body).data
      expect(pkg.versions.map((v) => [v.version, v.priceUnits, v.durationDays])).toEqual([[2, 80000000n, 30], [1, 60000000n, 14]])
      expect(new Set(pkg.versions.map((v) => v.offerPriceId)).size).toBe(2)
      // read at 1 again: the newest is 2 now
      expectProblem(yield* call("POST", `/api/v1/admin/ads/packages/${id}/versions`, { session: admin, body }), 409, "version-conflict")
      const listed = (yield* listPackages).find((p) => p.id === id)!
      expect(listed.versions.map((v) => v.version)).toEqual([2, 1])
    }))

  it.effect("refusals name the field and rule, and change nothing", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const unknownAsset = yield* call("POST", "/api/v1/admin/ads/packages", {
        session: admin,
        body: { ...popup, code: "AD_BANNER", assetPublicId: "01900005-0000-7000-8000-0000000000ff" }
      })
      expectProblem(unknownAsset, 400, "invalid-request")
      expect(unknownAsset.body.errors).toEqual([{ in: "body", pointer: "/assetPublicId", detail: "must be a known asset" }])
      const badCode = yield* call("POST", "/api/v1/admin/ads/packages", { session: admin, body: { ...popup, code: "popup" } })
      expectProblem(badCode, 400, "invalid-request")
      expect(badCode.body.errors[0].pointer).toBe("/code")
      expectProblem(
        yield* call("POST", "/api/v1/admin/ads/packages/01900000-0000-7000-8000-0000000000ff/versions", {
          session: admin,
          body: { expectedVersion: 1, assetPublicId: DemoAssets.usdc.id, priceUnits: "1", durationDays: 1 }
        }),
        404,
        "ad-package-not-found"
      )
      // not an administrator
      const owner = yield* signIn("owner")
      const refused = yield* call("POST", "/api/v1/admin/ads/packages", { session: owner, body: { ...popup, code: "AD_BANNER" } })
      expect(refused.status).toBe(403)
      const sql = yield* SqlClient.SqlClient
      const [count] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ad_packages WHERE code = 'AD_BANNER'`
      expect(count!.n).toBe(0)
    }))
})
