/**
 * HTTP handlers of orders (Commerce_CreateOrder, Commerce_GetOrder, Commerce_CancelOrder,
 * Commerce_RefundOrder, Commerce_ListEntitlements, Commerce_RecordManualPayment,
 * Commerce_ResolveOrderReview): decode → service → envelope.
 */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Orders } from "./Orders.js"

export const OrdersHttpLive = group(Api, "Orders", (handlers) =>
  Effect.gen(function*() {
    const orders = yield* Orders
    const envelope = yield* Envelope
    return handlers
      .handle("createOrder", ({ payload }) =>
        Effect.flatMap(currentSession, (session) => orders.create({ body: payload, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("getOrder", ({ path }) =>
        Effect.flatMap(currentSession, (session) => orders.get({ id: path.orderId, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("cancelOrder", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          orders.cancel({ id: path.orderId, expectedVersion: payload.expectedVersion, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("refundOrder", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          orders.refund({
            id: path.orderId,
            expectedVersion: payload.expectedVersion,
            reason: payload.reason,
            accountId: session.accountId,
            isAdmin: session.isAdmin
          }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("listEntitlements", ({ path, urlParams }) =>
        Effect.flatMap(currentSession, (session) =>
          orders.listEntitlements({ ...urlParams, workspaceId: path.workspaceId, accountId: session.accountId }))
          .pipe(Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))))
      .handle("recordManualPayment", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          orders.recordManualPayment({ id: path.orderId, units: payload.units, note: payload.note, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("resolveOrderReview", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          orders.resolveReview({
            id: path.orderId,
            expectedVersion: payload.expectedVersion,
            resolution: payload.resolution,
            note: payload.note,
            accountId: session.accountId
          }))
          .pipe(Effect.flatMap(envelope.data)))
  }))
