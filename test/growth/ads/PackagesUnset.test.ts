/**
 * Without a platform workspace (`ADS_PLATFORM_WORKSPACE_ID` unset), the admin's ad package commands
 * answer 409 `ads-platform-unset` and make nothing (docs/ads.md); the list still shows the packages
 * already on sale.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { DemoAssets } from "../../../demo/common.js"
import { DemoAdPackages } from "../../../demo/growth/ads/seed.js"
import { call, expectProblem, signIn } from "../../support/http.js"
import { makeTestServer } from "../../support/TestServer.js"
import { testConfig } from "../../support/config.js"

const server = makeTestServer({ ads: { ...testConfig().ads, platformWorkspaceId: Option.none() } })

layer(server.layer, { timeout: 120_000 })("Ad packages without a platform workspace", (it) => {
  it.effect("the commands answer 409 ads-platform-unset and make nothing", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      expectProblem(
        yield* call("POST", "/api/v1/admin/ads/packages", {
          session: admin,
          body: { code: "AD_POPUP", name: "Popup ad placement", placementKind: "POPUP", assetPublicId: DemoAssets.usdc.id, priceUnits: "1", durationDays: 1 }
        }),
        409,
        "ads-platform-unset"
      )
      expectProblem(
        yield* call("POST", `/api/v1/admin/ads/packages/${DemoAdPackages.inline.id}/versions`, {
          session: admin,
          body: { expectedVersion: 1, assetPublicId: DemoAssets.usdc.id, priceUnits: "1", durationDays: 1 }
        }),
        409,
        "ads-platform-unset"
      )
      const sql = yield* SqlClient.SqlClient
      const [counts] = yield* sql<{ packages: number; versions: number }>`
        SELECT (SELECT count(*) FROM ad_packages)::int AS packages, (SELECT count(*) FROM ad_package_versions)::int AS versions`
      expect(counts).toEqual({ packages: 3, versions: 5 })
      const listed = yield* call("GET", "/api/v1/ads/packages")
      expect(listed.status).toBe(200)
      expect(listed.body.data.map((p: { code: string }) => p.code)).toEqual(["AD_INLINE", "AD_SQUARE", "AD_STRIP"])
    }))
})
