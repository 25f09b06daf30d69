/** GET /api/v1/orders (Commerce_ListCommerceOrders, spec §2.11, §4.3). */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { CommerceOrder } from "../../src/commerce/Schemas.js"
import { Data } from "../../schema/envelope.js"
import { call, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoEntitlements, demoOrderLifecycle, DemoOrders, DemoPayments } from "../../demo/commerce/seed.js"
import { DemoAssets, DemoNetworks } from "../../demo/common.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"

const path = "/api/v1/orders"
const server = makeTestServer()
const decodeOrders = Schema.decodeUnknownSync(Data(Schema.Array(CommerceOrder)), { onExcessProperty: "error" })

const iso = (d: Date | null) => d?.toISOString() ?? null

/** Acme's demo orders as listed: newest first (the core orders and the ad package orders of demo/growth/ads/seed.ts). */
const acmeOrders = () =>
  DemoOrders.map((o, index) => ({ o, index })).filter(({ o }) => o.workspace === "acme")
    .sort((a, b) => b.o.day - a.o.day).map(({ index }) => wireOrder(index))

/** The wire form of the demo order at `index`, from the demo data set (demo/commerce/seed.ts). */
const wireOrder = (index: number) => {
  const o = DemoOrders[index]!
  const asset = DemoAssets[o.asset]
  const network = DemoNetworks[asset.network]
  const lifecycle = demoOrderLifecycle(o)
  return {
    id: o.id,
    orderNumber: o.number,
    state: o.state,
    version: lifecycle.version,
    workspacePublicId: DemoWorkspaces[o.workspace].id,
    agentPublicId: o.agent === null ? null : DemoAgents[o.agent]!.id,
    productCode: o.product[0],
    productName: o.product[1],
    networkPublicId: network.id,
    network: network.key,
    assetId: asset.id,
    symbol: asset.symbol,
    decimals: asset.decimals,
    subtotalUnits: o.subtotal,
    discountUnits: o.discount,
    totalUnits: o.total,
    holderBenefit: o.benefit === null ? null : { ...o.benefit },
    termsVersion: 1,
    policyVersion: 1,
    payments: DemoPayments.filter((p) => p.orderId === o.id).map((p) => ({
      id: p.id,
      rail: p.rail,
      state: p.state,
      units: p.units,
      transactionIntentPublicId: null,
      transactionHash: p.transactionHash,
      expiresAt: iso(p.expiresAt)
    })),
    entitlements: DemoEntitlements.filter((e) => e.orderId === o.id).map((e) => ({
      id: e.id,
      code: e.code,
      state: "ACTIVE",
      source: "ORDER",
      effectiveFrom: iso(e.effectiveFrom),
      effectiveUntil: iso(e.effectiveUntil),
      policyVersion: 1
    })),
    paidAt: iso(lifecycle.paidAt),
    activatedAt: iso(lifecycle.activatedAt),
    expiresAt: iso(lifecycle.expiresAt),
    createdAt: iso(lifecycle.createdAt),
    updatedAt: iso(lifecycle.updatedAt)
  }
}

layer(server.layer)("Commerce_ListCommerceOrders", (it) => {
  it.effect("shows the owner exactly the Acme orders, newest first, in the wire shape", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", path, { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^application\/json/)
      expect(Object.keys(reply.body).sort()).toEqual(["data", "meta"])
      expectMeta(reply)
      expect(reply.body.data.map((o: { orderNumber: string }) => o.orderNumber)).toEqual([
        "ORD-2026-0047", "ORD-2026-0005", "ORD-2026-0004", "ORD-2026-0002", "ORD-2026-0006", "ORD-2026-0001"
      ])
      expect(reply.body.data).toEqual(acmeOrders())
      expect(() => decodeOrders(reply.body)).not.toThrow()
    }))

  it.effect("serializes units as decimal strings and the holder benefit as an object or null", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", path, { session: owner })
      const byNumber = (n: string) => reply.body.data.find((o: { orderNumber: string }) => o.orderNumber === n)
      const pending = byNumber("ORD-2026-0002")
      const active = byNumber("ORD-2026-0001")
      for (const order of reply.body.data) {
        for (const key of ["subtotalUnits", "discountUnits", "totalUnits"]) {
          expect(typeof order[key], key).toBe("string")
          expect(order[key]).toMatch(/^(?:0|[1-9][0-9]{0,77})$/)
        }
        for (const payment of order.payments) expect(payment.units).toMatch(/^(?:0|[1-9][0-9]*)$/)
        expect(Object.keys(order)).toContain("holderBenefit")
      }
      expect(pending.totalUnits).toBe("2500000000")
      expect(pending.discountUnits).toBe("0")
      expect(pending.holderBenefit).toBeNull()
      expect(pending.payments[0].units).toBe("2500000000")
      expect(pending.entitlements).toEqual([])
      expect(pending.paidAt).toBeNull()
      expect(active.subtotalUnits).toBe("49000000")
      expect(active.discountUnits).toBe("4900000")
      expect(active.totalUnits).toBe("44100000")
      expect(active.holderBenefit).toEqual({
        decisionId: DemoOrders[0].benefit.decisionId,
        benefitPolicyVersion: 2,
        tierPolicyVersion: 1,
        tierCode: "GOLD",
        multiplierPpm: 1_100_000,
        discountBps: 1000
      })
      expect(active.payments).toHaveLength(1)
      expect(active.entitlements).toHaveLength(1)
      expect(active.entitlements[0].state).toBe("ACTIVE")
      // the decoded order carries bigints
      const decoded = decodeOrders(reply.body)
      expect(decoded.data.find((o) => o.orderNumber === "ORD-2026-0001")!.totalUnits).toBe(44_100_000n)
      expect(decoded.data.find((o) => o.orderNumber === "ORD-2026-0002")!.payments[0]!.units).toBe(2_500_000_000n)
    }))

  it.effect("shows the outsider only the orders of its own workspace", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const reply = yield* call("GET", path, { session: outsider })
      expect(reply.status, reply.text).toBe(200)
      const index = (n: string) => DemoOrders.findIndex((o) => o.number === n)
      expect(reply.body.data).toEqual([wireOrder(index("ORD-2026-0008")), wireOrder(index("ORD-2026-0007")), wireOrder(index("ORD-2026-0003"))])
      for (const order of reply.body.data) expect(order.workspacePublicId).toBe(DemoWorkspaces.outsider.id)
    }))

  it.effect("shows Acme's orders to every active member, whatever the role (admin is a VIEWER)", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const member = yield* signIn("member")
      const asAdmin = yield* call("GET", path, { session: admin })
      const asMember = yield* call("GET", path, { session: member })
      expect(asAdmin.status, asAdmin.text).toBe(200)
      expect(asAdmin.body.data).toEqual(acmeOrders())
      expect(asMember.body.data).toEqual(asAdmin.body.data)
    }))

  it.effect("needs a session (401) and is privately cacheable", () =>
    Effect.gen(function*() {
      const anonymous = yield* call("GET", path)
      expectProblem(anonymous, 401, "unauthenticated")
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", path, { session: owner })
      expect(reply.status).toBe(200)
      expect(reply.headers["cache-control"]).toBe("private, no-cache")
    }))
})
