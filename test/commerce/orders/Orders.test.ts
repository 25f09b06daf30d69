/**
 * Orders end to end through the HTTP stack (spec §2.11, §3; docs/commerce.md): placing one for a
 * published offer price, reading it as buyer and seller, cancelling it (versioned), the payment
 * deadline and the entitlement clock on the engine's durable clock (the `CommerceOrderLifecycle`
 * cron, driven by the server's manual clock), the admin payment rail, refunds on the ADMIN rail and
 * the review of a payment that arrived for a closed order.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { DemoOffers } from "../../../demo/services/seed.js"
import { DemoOrders } from "../../../demo/commerce/seed.js"
import { DemoPublishedPriceId } from "../../../demo/commerce/orders/manifest.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { Data } from "../../../schema/envelope.js"
import { CommerceOrder } from "../../../src/commerce/Schemas.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { until, waitFor } from "../../support/waitFor.js"
import { awaitCronScheduled } from "../../support/workflows.js"

const server = makeTestServer()
const decodeOrder = Schema.decodeUnknownSync(Data(CommerceOrder), { onExcessProperty: "error" })
const DayMs = 86_400_000

const outsiderWorkspace = DemoWorkspaces.outsider.id
const demoOrder = (number: string) => DemoOrders.find((o) => o.number === number)!

/** The outsider places an order of `quantity` Pro plans of Acme's (201 expected); returns the order. */
const placeOrder = (session: Session, quantity = 1) =>
  Effect.gen(function*() {
    const reply = yield* call("POST", "/api/v1/orders", {
      session,
      body: { offerPriceId: DemoPublishedPriceId, quantity, workspaceId: outsiderWorkspace }
    })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data
  })

const getOrder = (session: Session, id: string) => call("GET", `/api/v1/orders/${id}`, { session })

/** Waits (real time, at most 60 s) until the order, read by `session`, is in `state`. */
const awaitOrderState = (session: () => Session, id: string, state: string) =>
  waitFor(
    `order ${id} ${state}`,
    until(Effect.map(getOrder(session(), id), (r) => r.body.data?.state), (s) => s === state),
    60_000
  )

/** Sets the Pro plan's entitlement: `days` long with `graceDays` of grace. */
const setEntitlementPolicy = (days: number, graceDays: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE service_offers SET entitlement_days = ${days}, grace_days = ${graceDays} WHERE id = ${DemoOffers.published.id}`)
    .pipe(Effect.orDie)

layer(server.layer, { timeout: 180_000 })("Orders", (it) => {
  it.effect("an order locks the quote, answers 201 CREATED and is read by its buyer and its seller, 404 to others", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const order = yield* placeOrder(outsider, 3)
      expect(order).toMatchObject({
        state: "CREATED",
        version: 1,
        workspacePublicId: outsiderWorkspace,
        productName: "Pro research plan",
        subtotalUnits: "30000000",
        discountUnits: "0",
        totalUnits: "30000000",
        termsVersion: 1,
        policyVersion: 1,
        payments: [],
        entitlements: [],
        paidAt: null
      })
      expect(order.orderNumber).toMatch(/^ORD-2026-\d{6}$/)

      const asBuyer = yield* getOrder(outsider, order.id)
      expect(asBuyer.status, asBuyer.text).toBe(200)
      expectMeta(asBuyer)
      expect(asBuyer.headers["cache-control"]).toBe("private, no-cache")
      expect(asBuyer.body.data).toEqual(order)
      expect(decodeOrder(asBuyer.body).data.totalUnits).toBe(30_000_000n)
      // the seller (Acme sells the Pro plan) reads it too
      const asSeller = yield* getOrder(yield* signIn("member"), order.id)
      expect(asSeller.status, asSeller.text).toBe(200)
      // an order of neither the buyer's nor the seller's workspaces, and no order at all
      expectProblem(yield* getOrder(outsider, demoOrder("ORD-2026-0001").id), 404, "order-not-found")
      expectProblem(yield* getOrder(outsider, "0190ffff-0000-7000-8000-000000000000"), 404, "order-not-found")
    }))

  it.effect("refuses what it cannot place with a problem naming the field or the cause", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const post = (body: unknown) => call("POST", "/api/v1/orders", { session: outsider, body })
      const zero = yield* post({ offerPriceId: DemoPublishedPriceId, quantity: 0, workspaceId: outsiderWorkspace })
      expectProblem(zero, 400, "invalid-request")
      expect(zero.body.errors.map((e: { pointer: string }) => e.pointer)).toContain("/quantity")
      expect(zero.text).not.toContain('"0"')
      // the outsider is a member of two workspaces: which one buys must be said
      const which = yield* post({ offerPriceId: DemoPublishedPriceId })
      expectProblem(which, 400, "invalid-request")
      expect(which.body.errors).toEqual([{ in: "body", pointer: "/workspaceId", detail: "is required when you are a member of several workspaces" }])
      const unknown = yield* post({ offerPriceId: DemoPublishedPriceId, workspaceId: outsiderWorkspace, coupon: "X" })
      expectProblem(unknown, 400)
      // a price of a DRAFT offer
      const draft = yield* post({ offerPriceId: "0190000d-0000-7000-8000-000000000001", workspaceId: outsiderWorkspace })
      expectProblem(draft, 422, "offer-not-purchasable")
      // a workspace the caller is not a member of
      const foreign = yield* post({ offerPriceId: DemoPublishedPriceId, workspaceId: DemoWorkspaces.acme.id })
      expectProblem(foreign, 404, "workspace-not-found")
      // an EDITOR of Mel's team may not buy for it
      const team = yield* post({ offerPriceId: DemoPublishedPriceId, workspaceId: DemoWorkspaces.team.id })
      expectProblem(team, 403, "role-required")
      // no Idempotency-Key
      const unkeyed = yield* call("POST", "/api/v1/orders", {
        session: outsider,
        idempotencyKey: null,
        body: { offerPriceId: DemoPublishedPriceId, workspaceId: outsiderWorkspace }
      })
      expectProblem(unkeyed, 400)
    }))

  it.effect("cancels an unpaid order once at its version; its open payment expires; others are refused in order", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const owner = yield* signIn("owner")
      const order = yield* placeOrder(outsider)
      const cancel = (session: Session, expectedVersion: number, id = order.id) =>
        call("POST", `/api/v1/orders/${id}/cancel`, { session, body: { expectedVersion } })
      expectProblem(yield* cancel(owner, 1), 403, "role-required") // the seller cannot cancel the buyer's order
      expectProblem(yield* cancel(outsider, 2), 409, "version-conflict")
      const cancelled = yield* cancel(outsider, 1)
      expect(cancelled.status, cancelled.text).toBe(200)
      expect(cancelled.body.data).toMatchObject({ state: "CANCELLED", version: 2 })
      expectProblem(yield* cancel(outsider, 2), 409, "invalid-state")
      expectProblem(yield* cancel(outsider, 1, "0190ffff-0000-7000-8000-000000000000"), 404, "order-not-found")
      // the demo's PAYMENT_PENDING order: its PENDING payment expires with it
      const pending = demoOrder("ORD-2026-0007")
      const withPayment = yield* cancel(outsider, 1, pending.id)
      expect(withPayment.status, withPayment.text).toBe(200)
      expect(withPayment.body.data.state).toBe("CANCELLED")
      expect(withPayment.body.data.payments.map((p: { state: string }) => p.state)).toEqual(["EXPIRED"])
      // a paid order cannot be cancelled
      expectProblem(yield* cancel(owner, 3, demoOrder("ORD-2026-0001").id), 409, "invalid-state")
    }))

  it.effect("an admin records a manual payment: ADMIN rail CONFIRMED, order ACTIVE with its entitlement; the seller refunds it at once", () =>
    Effect.gen(function*() {
      yield* setEntitlementPolicy(30, 0)
      const outsider = yield* signIn("outsider")
      const admin = yield* signIn("admin")
      const owner = yield* signIn("owner")
      const order = yield* placeOrder(outsider, 2)
      const pay = (units: string) =>
        call("POST", `/api/v1/admin/orders/${order.id}/payments`, { session: admin, body: { units, note: "Wire ref. 42" } })
      const short = yield* pay("19999999")
      expectProblem(short, 422, "payment-units-mismatch")
      expectProblem(yield* call("POST", `/api/v1/admin/orders/${order.id}/payments`, {
        session: owner,
        body: { units: "20000000", note: "Wire ref. 42" }
      }), 403, "admin-required")
      const paid = yield* pay("20000000")
      expect(paid.status, paid.text).toBe(201)
      const data = paid.body.data
      expect(data.state).toBe("ACTIVE")
      expect(data.paidAt).not.toBeNull()
      expect(data.payments).toHaveLength(1)
      expect(data.payments[0]).toMatchObject({ rail: "ADMIN", state: "CONFIRMED", units: "20000000", transactionHash: null })
      expect(data.entitlements).toHaveLength(1)
      expect(data.entitlements[0].state).toBe("ACTIVE")
      expect(Date.parse(data.entitlements[0].effectiveUntil) - Date.parse(data.entitlements[0].effectiveFrom)).toBe(30 * DayMs)
      // a second manual payment for a paid order
      expectProblem(yield* pay("20000000"), 409, "invalid-state")

      const refund = (session: Session, expectedVersion: number) =>
        call("POST", `/api/v1/orders/${order.id}/refund`, { session, body: { expectedVersion, reason: "Not as described." } })
      expectProblem(yield* refund(outsider, data.version), 403, "role-required") // the buyer cannot refund
      expectProblem(yield* refund(owner, data.version - 1), 409, "version-conflict")
      const refunded = yield* refund(owner, data.version)
      expect(refunded.status, refunded.text).toBe(202)
      expect(refunded.body.data.state).toBe("REFUNDED")
      expect(refunded.body.data.version).toBe(data.version + 2) // → REFUND_PENDING → REFUNDED
      expect(refunded.body.data.payments[0].state).toBe("REFUNDED")
      expect(refunded.body.data.entitlements[0].state).toBe("REVOKED")
      expectProblem(yield* refund(owner, data.version + 2), 409, "invalid-state")
      // the audit trail of both
      const audit = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ action: string }>`SELECT action FROM audit_events WHERE target_id = ${order.id} ORDER BY created_at, action`)
        .pipe(Effect.orDie)
      expect(audit.map((a) => a.action).sort()).toEqual(["order.manual_payment_recorded", "order.refund_requested"])
    }))

  it.effect("a payment confirmed for a closed order waits in MANUAL_REVIEW until an admin accepts or refunds it", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const admin = yield* signIn("admin")
      const sql = yield* SqlClient.SqlClient
      const review = (id: string, expectedVersion: number, resolution: "ACCEPT" | "REFUND") =>
        call("POST", `/api/v1/admin/orders/${id}/review`, { session: admin, body: { expectedVersion, resolution, note: "Checked." } })
      for (const resolution of ["ACCEPT", "REFUND"] as const) {
        const order = yield* placeOrder(outsider)
        // a processor payment is opened, the buyer cancels, then the processor reports the money arrived
        const paymentId = `0190eeee-0000-7000-8000-00000000000${resolution === "ACCEPT" ? 1 : 2}`
        const at = new Date(server.clock.unsafeCurrentTimeMillis())
        yield* sql`INSERT INTO payments (id, order_id, rail, state, units, expires_at, created_at, updated_at, reference)
            VALUES (${paymentId}, ${order.id}, 'PROCESSOR', 'PENDING', 10000000, ${at}, ${at}, ${at}, ${`pi_${resolution}`})`.pipe(Effect.orDie)
        yield* sql`UPDATE orders SET state = 'CANCELLED', version = version + 1 WHERE id = ${order.id}`.pipe(Effect.orDie)
        yield* sql`UPDATE payments SET state = 'MANUAL_REVIEW' WHERE id = ${paymentId}`.pipe(Effect.orDie)
        yield* sql`UPDATE orders SET state = 'MANUAL_REVIEW', version = version + 1 WHERE id = ${order.id}`.pipe(Effect.orDie)
        expectProblem(yield* review(order.id, 2, resolution), 409, "version-conflict")
        const resolved = yield* review(order.id, 3, resolution)
        expect(resolved.status, resolved.text).toBe(200)
        if (resolution === "ACCEPT") {
          expect(resolved.body.data.state).toBe("ACTIVE")
          expect(resolved.body.data.payments[0].state).toBe("CONFIRMED")
          expect(resolved.body.data.entitlements.map((e: { state: string }) => e.state)).toEqual(["ACTIVE"])
        } else {
          // a processor refund waits for the processor's refund event
          expect(resolved.body.data.state).toBe("REFUND_PENDING")
          expect(resolved.body.data.payments[0].state).toBe("REFUND_PENDING")
        }
        expectProblem(yield* review(order.id, resolved.body.data.version, resolution), 409, "invalid-state")
      }
    }))

  it.effect("entitlements: a workspace's list with a state filter and cursor pages, 404 for non-members", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const outsider = yield* signIn("outsider")
      const list = (session: Session, workspaceId: string, query = "") =>
        call("GET", `/api/v1/workspaces/${workspaceId}/entitlements${query}`, { session })
      const acme = yield* list(owner, DemoWorkspaces.acme.id, "?limit=1")
      expect(acme.status, acme.text).toBe(200)
      expect(acme.body.data).toHaveLength(1)
      expect(typeof acme.body.nextCursor).toBe("string")
      const next = yield* list(owner, DemoWorkspaces.acme.id, `?limit=1&cursor=${encodeURIComponent(acme.body.nextCursor)}`)
      expect(next.status, next.text).toBe(200)
      expect(next.body.data).toHaveLength(1)
      expect(next.body.data[0].id).not.toBe(acme.body.data[0].id)
      expect(next.body.nextCursor).toBeNull()
      expect(acme.body.data[0]).toMatchObject({ state: "ACTIVE", source: "ORDER", runsUsed: 0, graceUntil: null })
      // a cursor of another filter
      expectProblem(yield* list(owner, DemoWorkspaces.acme.id, `?state=GRACE&cursor=${encodeURIComponent(acme.body.nextCursor)}`), 400, "invalid-cursor")
      const bad = yield* list(owner, DemoWorkspaces.acme.id, "?state=PAUSED")
      expectProblem(bad, 400, "invalid-request")
      expect(bad.body.errors[0].pointer).toBe("/state")
      expectProblem(yield* list(outsider, DemoWorkspaces.acme.id), 404, "workspace-not-found")
    }))

  // the tests below move the server's clock forward: they come last
  it.effect("an unpaid order EXPIRES at its payment deadline, and an entitlement goes ACTIVE → GRACE → EXPIRED (order COMPLETED), on the engine's clock", () =>
    Effect.gen(function*() {
      yield* setEntitlementPolicy(10, 2)
      yield* awaitCronScheduled("CommerceOrderLifecycle")
      expect(server.clock.unsafeCurrentTimeMillis()).toBe(TestEpoch.getTime())
      let outsider = yield* signIn("outsider")
      const admin = yield* signIn("admin")
      const unpaid = yield* placeOrder(outsider)
      const paid = yield* placeOrder(outsider)
      const active = yield* call("POST", `/api/v1/admin/orders/${paid.id}/payments`, {
        session: admin,
        body: { units: "10000000", note: "Wire ref. 7" }
      })
      expect(active.status, active.text).toBe(201)
      const entitlement = active.body.data.entitlements[0]
      const start = Date.parse(entitlement.effectiveFrom)

      // 31 minutes later: the unpaid order is past its deadline (30 minutes)
      server.clock.set(new Date(start + 31 * 60_000))
      yield* awaitOrderState(() => outsider, unpaid.id, "EXPIRED")
      expect((yield* getOrder(outsider, paid.id)).body.data.state).toBe("ACTIVE")

      // 10 days and a minute: the entitlement is in its grace period, the order still ACTIVE
      server.clock.set(new Date(start + 10 * DayMs + 61_000))
      outsider = yield* signIn("outsider")
      const inGrace = yield* waitFor(
        "the entitlement in GRACE",
        until(
          call("GET", `/api/v1/workspaces/${outsiderWorkspace}/entitlements?state=GRACE`, { session: outsider }),
          (r) => r.body.data?.some((e: { id: string }) => e.id === entitlement.id) === true
        ),
        60_000
      )
      const graced = inGrace.body.data.find((e: { id: string }) => e.id === entitlement.id)
      expect(Date.parse(graced.graceUntil)).toBe(start + 12 * DayMs)
      expect((yield* getOrder(outsider, paid.id)).body.data.state).toBe("ACTIVE")

      // past the grace: EXPIRED, and the order COMPLETED
      server.clock.set(new Date(start + 12 * DayMs + 61_000))
      outsider = yield* signIn("outsider")
      yield* awaitOrderState(() => outsider, paid.id, "COMPLETED")
      const final = (yield* getOrder(outsider, paid.id)).body.data
      expect(final.entitlements[0].state).toBe("EXPIRED")
      expect(final.version).toBe(active.body.data.version + 1)
    }), 240_000)
})
