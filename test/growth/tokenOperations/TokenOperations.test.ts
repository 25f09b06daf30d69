/** Growth_ListAdminTokenOperations (GET /api/v1/admin/token-operations, spec §2.13, §4.2) through the HTTP stack. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoTokenOperations } from "../../../demo/growth/tokenOperations/seed.js"
import { call, expectMeta, expectProblem, signIn } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { DemoAssets, DemoNetworks } from "../../../demo/common.js"

const Path = "/api/v1/admin/token-operations"
const server = makeTestServer()

layer(server.layer)("Growth_ListAdminTokenOperations", (it) => {
  it.effect("an admin gets every token operation, newest first, in the spec's shape, with asOf = now", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const reply = yield* call("GET", Path, { session: admin })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expect(Object.keys(reply.body).sort()).toEqual(["asOf", "data", "meta"])
      expect(reply.body.asOf).toBe(TestEpoch.toISOString())
      expectMeta(reply)
      const data = reply.body.data as Array<any>
      expect(data.map((o) => o.id)).toEqual([...DemoTokenOperations].sort((a, b) => b.days - a.days).map((o) => o.id))
      expect(new Set(data.map((o) => o.state)).size).toBe(DemoTokenOperations.length)
      for (const op of data) {
        expect(Object.keys(op).sort()).toEqual([
          "approvedAt", "assetId", "decimals", "destination", "evidenceRef", "failureCode", "id", "journalEntryId", "kind",
          "network", "networkId", "policyVersion", "publicSummary", "quoteAssetId", "quoteUnits", "reconciledAt",
          "requestedAt", "source", "state", "symbol", "transactionIntentPublicId", "units", "version"
        ])
        expect(op.units).toMatch(/^(?:0|[1-9][0-9]{0,77})$/)
        expect(op).toMatchObject({ networkId: DemoNetworks.base.id, network: "base", assetId: DemoAssets.usdc.id, symbol: "USDC", decimals: 6 })
      }
      const reconciled = data.find((o) => o.state === "RECONCILED")
      expect(reconciled).toMatchObject({
        kind: "BUYBACK",
        units: "125000000",
        quoteAssetId: DemoAssets.sol.id,
        quoteUnits: "2500000000",
        requestedAt: "2026-01-21T00:00:00.000Z",
        approvedAt: "2026-01-21T00:30:00.000Z",
        reconciledAt: "2026-01-22T00:00:00.000Z",
        failureCode: null,
        version: 3
      })
      expect(data.find((o) => o.state === "FAILED")).toMatchObject({ failureCode: "INSUFFICIENT_FUNDS", approvedAt: "2026-04-01T00:30:00.000Z" })
      expect(data.find((o) => o.state === "PLANNED")).toMatchObject({ approvedAt: null, quoteUnits: null, transactionIntentPublicId: null, version: 1 })
    }))

  it.effect("401 without a session, 403 admin-required for a non-admin", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("GET", Path), 401)
      const owner = yield* signIn("owner")
      expectProblem(yield* call("GET", Path, { session: owner }), 403, "admin-required")
    }))

})
