/**
 * Orders (spec §2.11, §3, §4.3; docs/commerce.md): placing one for an offer price, reading it,
 * cancelling it unpaid, refunding it (seller or admin), the admin payment rail and the review of
 * payments that arrived for closed orders, and a workspace's entitlements. The payment moves
 * themselves are the settlement's (`../Settlement.ts`); the moves of time are `Lifecycle.ts`'s.
 *
 * Who sees an order: the active members of its buying workspace (any role) and of the workspace
 * selling its offer (they fulfil and refund it). Anyone else: 404 `order-not-found`.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { Audit } from "../../../layers/Audit.js"
import { now } from "../../../layers/Clock.js"
import { Cursor } from "../../../layers/Cursor.js"
import { Ids } from "../../../layers/Ids.js"
import { TransactionIntents } from "../../../layers/TransactionIntents.js"
import { InvalidRequest, InvalidState, RoleRequired, WorkspaceNotFound } from "../../../schema/errors.js"
import { can, type Permission, rolesInWords } from "../../../schema/roles.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { explainRefusal } from "../../db/versioned.js"
import { OrderNotFound } from "../Errors.js"
import { CommerceRepo } from "../Repo.js"
import { confirmPayment, openPayment, placeOrder } from "../Settlement.js"
import { OrderSettings } from "./Config.js"
import { PaymentUnitsMismatch } from "./Errors.js"
import { startRefund } from "./Refunds.js"
import { EntitlementPosition, type OrderAccess, OrdersRepo, RefundableStates, UnpaidStates } from "./Repo.js"
import type { CreateOrderRequest, EntitlementState } from "./Schemas.js"

/** Order states an admin review applies to. */
const ReviewStates = ["MANUAL_REVIEW"] as const

const notFound = (id: string) => (detail?: string) => new OrderNotFound({ detail: detail ?? `No order ${id}.` })

/**
 * Orders. Requires `SqlClient`, `Ids`, `Audit`, `Cursor`, `TransactionIntents`, `OrderSettings`
 * (and `CommerceRepo`, `OrdersRepo`, its own).
 */
export class Orders extends Effect.Service<Orders>()("agent-directory/Orders", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* OrdersRepo
    const orders = yield* CommerceRepo
    const ids = yield* Ids
    const audit = yield* Audit
    const cursor = yield* Cursor
    const intents = yield* TransactionIntents
    const settings = yield* OrderSettings

    const provide = <A, E>(self: Effect.Effect<A, E, SqlClient.SqlClient | Ids | TransactionIntents>) =>
      self.pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.provideService(Ids, ids),
        Effect.provideService(TransactionIntents, intents)
      )

    const wire = (id: string) => Effect.map(orders.orderById(id), Option.getOrThrow)

    /** The order as `accountId` sees it: none when absent or neither its buyer's nor its seller's member. */
    const visible = (id: string, accountId: string, isAdmin = false) =>
      Effect.map(
        repo.access(id, accountId),
        Option.filter((o) => isAdmin || o.buyerRole !== null || o.sellerRole !== null)
      ).pipe(dieOnStorageFailure)

    /**
     * Why a versioned command on a visible order changed nothing (src/db/versioned.ts order):
     * 404, 403 `role-required`, 409 `version-conflict`, 409 `invalid-state`, 409 `conflict`.
     */
    const refuse = (input: {
      readonly id: string
      readonly current: Option.Option<OrderAccess>
      readonly allowed: (o: OrderAccess) => boolean
      readonly permission: Permission | null
      readonly expectedVersion: number
      readonly fromStates: ReadonlyArray<string>
      readonly verb: string
    }) =>
      Effect.gen(function*() {
        if (Option.isSome(input.current) && !input.allowed(input.current.value)) {
          return yield* new RoleRequired({
            detail: input.permission === null
              ? `Only an administrator may ${input.verb} this order.`
              : `To ${input.verb} this order you need ${rolesInWords(input.permission)} in its ${
                input.permission === "commerce.refund" ? "seller's" : "buyer's"
              } workspace.`
          })
        }
        return yield* explainRefusal({
          resource: "order",
          id: input.id,
          notFound: notFound(input.id),
          current: input.current,
          expectedVersion: input.expectedVersion,
          fromStates: input.fromStates,
          stateDetail: (state) => `The order is ${state}; to ${input.verb} it, it must be ${input.fromStates.join(" or ")}.`
        })
      })

    /**
     * Commerce_CreateOrder: the buying workspace (`workspaceId`, or the caller's only one), the
     * caller's `commerce.buy` there, then `placeOrder` (CREATED, payment due in
     * `ORDER_PAYMENT_DUE_MINUTES`). Fails with `InvalidRequest` (`/workspaceId` missing while the
     * caller has several workspaces), `WorkspaceNotFound`, `RoleRequired`, `OfferNotPurchasable`.
     */
    const create = (input: { readonly body: CreateOrderRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const memberships = yield* repo.memberships(input.accountId)
        let workspaceId: string
        if (input.body.workspaceId !== undefined) {
          workspaceId = input.body.workspaceId.toLowerCase()
        } else if (memberships.length === 1) {
          workspaceId = memberships[0]!.workspaceId
        } else if (memberships.length === 0) {
          return yield* new WorkspaceNotFound({ detail: "You are not an active member of any workspace." })
        } else {
          return yield* new InvalidRequest({
            detail: "The body is not valid: /workspaceId is required when you are a member of several workspaces.",
            errors: [{ in: "body", pointer: "/workspaceId", detail: "is required when you are a member of several workspaces" }]
          })
        }
        const membership = memberships.find((m) => m.workspaceId === workspaceId)
        if (membership === undefined) return yield* new WorkspaceNotFound({ detail: `No workspace ${workspaceId}.` })
        if (!can(membership.role, "commerce.buy")) {
          return yield* new RoleRequired({ detail: `Placing an order needs ${rolesInWords("commerce.buy")} in the buying workspace.` })
        }
        const placed = yield* provide(placeOrder({
          workspaceId,
          offerPriceId: input.body.offerPriceId.toLowerCase(),
          quantity: input.body.quantity,
          buyerAccountId: input.accountId,
          paymentWindowMillis: settings.orders.paymentDueMinutes * 60_000
        }))
        return yield* wire(placed.id)
      }).pipe(dieOnStorageFailure)

    /** Commerce_GetOrder. Fails with `OrderNotFound` (absent, or not visible to the caller). */
    const get = (input: { readonly id: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const id = input.id.toLowerCase()
        const found = yield* visible(id, input.accountId)
        if (Option.isNone(found)) return yield* notFound(input.id)()
        return yield* wire(id)
      })

    /**
     * Commerce_CancelOrder: CREATED or PAYMENT_PENDING → CANCELLED at `expectedVersion` (version
     * + 1), open payments (CREATED, PENDING) → EXPIRED; a member of the buying workspace with
     * `commerce.buy`. Fails with `OrderNotFound`, `RoleRequired`, `VersionConflict`, `InvalidState`, `Conflict`.
     */
    const cancel = (input: { readonly id: string; readonly expectedVersion: number; readonly accountId: string }) =>
      Effect.gen(function*() {
        const id = input.id.toLowerCase()
        const current = yield* visible(id, input.accountId)
        const allowed = (o: OrderAccess) => o.buyerRole !== null && can(o.buyerRole, "commerce.buy")
        const at = yield* now
        const moved = Option.isSome(current) && allowed(current.value) &&
          (yield* repo.moveOrder(id, UnpaidStates, "CANCELLED", at, input.expectedVersion))
        if (!moved) {
          return yield* refuse({
            id: input.id,
            current: yield* visible(id, input.accountId),
            allowed,
            permission: "commerce.buy",
            expectedVersion: input.expectedVersion,
            fromStates: UnpaidStates,
            verb: "cancel"
          })
        }
        yield* repo.movePayments(id, ["CREATED", "PENDING"], "EXPIRED", at)
        return yield* wire(id)
      }).pipe(dieOnStorageFailure)

    /**
     * Commerce_RefundOrder: PAID, FULFILLMENT_PENDING or ACTIVE → REFUND_PENDING at
     * `expectedVersion`, then the refund through the payment's rail (`Refunds.ts`); a member of
     * the seller's workspace with `commerce.refund`, or a platform administrator. Audit
     * `order.refund_requested` (the reason). Fails with `OrderNotFound`, `RoleRequired`,
     * `VersionConflict`, `InvalidState`, `Conflict`, `RefundNotPossible`, `ChainRpcUnavailable`.
     */
    const refund = (input: {
      readonly id: string
      readonly expectedVersion: number
      readonly reason: string
      readonly accountId: string
      readonly isAdmin: boolean
    }) =>
      Effect.gen(function*() {
        const id = input.id.toLowerCase()
        const current = yield* visible(id, input.accountId, input.isAdmin)
        const allowed = (o: OrderAccess) => input.isAdmin || (o.sellerRole !== null && can(o.sellerRole, "commerce.refund"))
        const at = yield* now
        const moved = Option.isSome(current) && allowed(current.value) &&
          (yield* repo.moveOrder(id, RefundableStates, "REFUND_PENDING", at, input.expectedVersion))
        if (!moved || Option.isNone(current)) {
          return yield* refuse({
            id: input.id,
            current: yield* visible(id, input.accountId, input.isAdmin),
            allowed,
            permission: "commerce.refund",
            expectedVersion: input.expectedVersion,
            fromStates: RefundableStates,
            verb: "refund"
          })
        }
        const order = current.value
        const signer = order.sellerRole !== null
          ? input.accountId
          : Option.match(yield* repo.workspaceOwner(order.sellerWorkspaceId ?? ""), {
            onNone: () => null,
            onSome: (o) => o.accountId
          })
        const payment = yield* provide(startRefund({ orderId: id, ownerAccountId: signer, at }))
        yield* audit.record({
          workspaceId: order.sellerWorkspaceId ?? order.workspaceId,
          actorAccountId: input.accountId,
          action: "order.refund_requested",
          target: { type: "order", id },
          details: {
            fromState: order.state,
            rail: Option.match(payment, { onNone: () => null, onSome: (p) => p.rail }),
            reason: input.reason
          }
        })
        return yield* wire(id)
      }).pipe(dieOnStorageFailure)

    /**
     * Commerce_RecordManualPayment (admin): on a CREATED or PAYMENT_PENDING order, an ADMIN-rail
     * payment of the order's total is opened and confirmed at once (order PAID, then ACTIVE with its
     * entitlement). Audit `order.manual_payment_recorded` (the note). Fails with `OrderNotFound`,
     * `InvalidState`, `PaymentUnitsMismatch`.
     */
    const recordManualPayment = (input: {
      readonly id: string
      readonly units: bigint
      readonly note: string
      readonly accountId: string
    }) =>
      Effect.gen(function*() {
        const id = input.id.toLowerCase()
        const rows = yield* sql<{ state: string; total: string; workspaceId: string }>`
          SELECT state, total_units::text AS total, workspace_id AS "workspaceId" FROM orders WHERE id = ${id} FOR UPDATE`
        const order = rows[0]
        if (order === undefined) return yield* notFound(input.id)()
        if (!(UnpaidStates as ReadonlyArray<string>).includes(order.state)) {
          return yield* new InvalidState({
            detail: `The order is ${order.state}; a manual payment is recorded only for a CREATED or PAYMENT_PENDING order.`
          })
        }
        if (BigInt(order.total) !== input.units) {
          return yield* new PaymentUnitsMismatch({
            detail: "The body is not valid: /units must be the order's totalUnits for a manual payment."
          })
        }
        const at = yield* now
        const paymentId = yield* ids.next
        const payment = yield* provide(openPayment({
          orderId: id,
          rail: "ADMIN",
          reference: `admin:${paymentId}`,
          transactionIntentId: null,
          expiresAt: at
        })).pipe(Effect.catchAll((e) => Effect.die(e)))
        yield* provide(confirmPayment(payment.id, { transactionHash: null }))
        yield* audit.record({
          workspaceId: order.workspaceId,
          actorAccountId: input.accountId,
          action: "order.manual_payment_recorded",
          target: { type: "order", id },
          details: { paymentId: payment.id, units: input.units.toString(), note: input.note }
        })
        return yield* wire(id)
      }).pipe(dieOnStorageFailure)

    /**
     * Commerce_ResolveOrderReview (admin): a MANUAL_REVIEW order at `expectedVersion`. ACCEPT: its
     * reviewed payment → CONFIRMED; an order never paid is paid and activated by the settlement
     * (MANUAL_REVIEW → PAYMENT_PENDING → PAID → ACTIVE, its entitlement ACTIVE), one paid before (a
     * confirmed payment reorged out) goes back to ACTIVE (or PAID without a live entitlement).
     * REFUND: → REFUND_PENDING and the refund through the payment's rail. Audit
     * `order.review_resolved`. Fails with `OrderNotFound`, `VersionConflict`, `InvalidState`,
     * `Conflict`, `RefundNotPossible`, `ChainRpcUnavailable`.
     */
    const resolveReview = (input: {
      readonly id: string
      readonly expectedVersion: number
      readonly resolution: "ACCEPT" | "REFUND"
      readonly note: string
      readonly accountId: string
    }) =>
      Effect.gen(function*() {
        const id = input.id.toLowerCase()
        const at = yield* now
        const rows = yield* sql<{ state: string; version: number; workspaceId: string; paidAt: Date | null; live: boolean }>`
          SELECT state, version::float8 AS version, workspace_id AS "workspaceId", paid_at AS "paidAt",
            EXISTS (SELECT 1 FROM entitlements e WHERE e.order_id = orders.id AND e.state IN ('ACTIVE', 'GRACE')) AS live
          FROM orders WHERE id = ${id} FOR UPDATE`
        const order = rows[0]
        if (order === undefined || order.version !== input.expectedVersion || order.state !== "MANUAL_REVIEW") {
          return yield* explainRefusal({
            resource: "order",
            id: input.id,
            notFound: notFound(input.id),
            current: Option.fromNullable(order),
            expectedVersion: input.expectedVersion,
            fromStates: ReviewStates,
            stateDetail: (state) => `The order is ${state}; only an order in MANUAL_REVIEW is resolved.`
          })
        }
        const payments = yield* repo.payments(id)
        const reviewed = payments.find((p) => p.state === "MANUAL_REVIEW")
        if (input.resolution === "ACCEPT") {
          if (order.paidAt !== null) {
            if (reviewed !== undefined) yield* repo.movePayment(reviewed.id, ["MANUAL_REVIEW"], "CONFIRMED", at)
            yield* repo.moveOrder(id, ReviewStates, order.live ? "ACTIVE" : "PAID", at)
          } else if (reviewed !== undefined) {
            yield* repo.moveOrder(id, ReviewStates, "PAYMENT_PENDING", at)
            yield* repo.movePayment(reviewed.id, ["MANUAL_REVIEW"], "PENDING", at)
            yield* provide(confirmPayment(reviewed.id, { transactionHash: null }))
          } else {
            return yield* new InvalidState({ detail: "The order has no payment under review to accept." })
          }
        } else {
          yield* repo.moveOrder(id, ReviewStates, "REFUND_PENDING", at)
          const sellerOwner = yield* sql<{ accountId: string }>`
            SELECT m.account_id AS "accountId" FROM orders o
            JOIN service_offers so ON so.id = o.offer_id JOIN services s ON s.id = so.service_id
            JOIN workspace_members m ON m.workspace_id = s.workspace_id AND m.is_workspace_owner AND m.state = 'ACTIVE'
            WHERE o.id = ${id}`
          yield* provide(startRefund({ orderId: id, ownerAccountId: sellerOwner[0]?.accountId ?? null, at }))
        }
        yield* audit.record({
          workspaceId: order.workspaceId,
          actorAccountId: input.accountId,
          action: "order.review_resolved",
          target: { type: "order", id },
          details: { resolution: input.resolution, paymentId: reviewed?.id ?? null, note: input.note }
        })
        return yield* wire(id)
      }).pipe(dieOnStorageFailure)

    /**
     * Commerce_ListEntitlements: one page of the workspace's entitlements, newest first, optionally
     * of one state. Fails with `WorkspaceNotFound` (not an ACTIVE member) or `InvalidCursor`.
     */
    const listEntitlements = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly state?: EntitlementState | undefined
      readonly cursor?: string | undefined
      readonly limit: number
    }) =>
      Effect.gen(function*() {
        const workspaceId = input.workspaceId.toLowerCase()
        const memberships = yield* repo.memberships(input.accountId)
        if (!memberships.some((m) => m.workspaceId === workspaceId)) {
          return yield* new WorkspaceNotFound({ detail: `No workspace ${input.workspaceId}.` })
        }
        const state = input.state ?? null
        const page = yield* cursor.page({
          position: EntitlementPosition,
          cursor: input.cursor,
          param: "cursor",
          binding: { operation: "Commerce_ListEntitlements", workspace: workspaceId, principal: input.accountId, state },
          limit: input.limit,
          fetch: (after, take) => repo.entitlements({ workspaceId, state, after: after ?? null, take }),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((r) => r.entitlement), nextCursor: page.nextCursor }
      }).pipe(dieOnStorageFailure)

    return { create, get, cancel, refund, recordManualPayment, resolveReview, listEntitlements } as const
  }),
  dependencies: [OrdersRepo.Default, CommerceRepo.Default]
}) {}
