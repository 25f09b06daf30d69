/**
 * Commerce area contract, orders (spec §2.11, §3, §4.3): placing, reading, cancelling and refunding
 * an order, the admin payment rail and a workspace's entitlements. Its own group (identifier
 * `Orders`) published under the OpenAPI tag `Commerce`, beside the order list of the same tag.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Data, Page } from "../../../schema/envelope.js"
import {
  ChainRpcUnavailable,
  Conflict,
  InvalidCursor,
  InvalidRequest,
  InvalidState,
  RoleRequired,
  VersionConflict,
  WorkspaceNotFound
} from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { OfferNotPurchasable, OrderNotFound } from "../Errors.js"
import { CommerceOrder } from "../Schemas.js"
import { PaymentUnitsMismatch, RefundNotPossible } from "./Errors.js"
import {
  CancelOrderRequest,
  CreateOrderRequest,
  ListEntitlementsQuery,
  OrderPath,
  RecordManualPaymentRequest,
  RefundOrderRequest,
  ResolveOrderReviewRequest,
  WorkspaceEntitlement,
  WorkspaceEntitlementsPath
} from "./Schemas.js"

const moves = "The moves of orders, payments and entitlements, and who makes each, are in docs/commerce.md; every " +
  "order move adds one to `version`."

const refundRails = "By the rail of the confirmed payment: ADMIN → REFUNDED at once (payment REFUNDED, entitlements " +
  "REVOKED); PROCESSOR → REFUND_PENDING until the processor's refund event; ONCHAIN and X402 → REFUND_PENDING with a " +
  "transaction intent (an ERC-20 `transfer` of the paid units from the seller's payout address back to the payer, " +
  "signed by the seller's wallet, Wallets_GetTransactionIntent), REFUNDED when it is confirmed on chain."

export class OrdersApi extends HttpApiGroup.make("Orders")
  .add(
    HttpApiEndpoint.post("createOrder", "/api/v1/orders")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateOrderRequest)
      .addSuccess(Data(CommerceOrder), { status: 201 })
      .pipe(
        operation({
          id: "Commerce_CreateOrder",
          permission: "commerce.buy",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500, 503],
          summary: "Place an order for an offer price",
          description: [
            "Places an order for `quantity` (1-1000, default 1) of the offer price `offerPriceId` and answers 201 with the",
            "order CREATED. The quote is locked in the order: `totalUnits` = the price's units × `quantity` (minor units of",
            "the price's asset, decimal strings), its network and asset, the offer's current terms revision (`termsVersion`)",
            "and fulfillment policy version (`policyVersion`). The buying workspace is `workspaceId`, required when the",
            "caller is an active member of several workspaces (400 naming `/workspaceId`), else the caller's one workspace;",
            "one the caller is not an active member of is 404 `workspace-not-found`. An unpaid order EXPIRES at its payment",
            "deadline (`ORDER_PAYMENT_DUE_MINUTES` after it was placed, default 30), on the engine's durable clock. 422",
            "`offer-not-purchasable` when the offer is not PUBLISHED or the price is not effective now. " + moves
          ].join("\n"),
          errors: [InvalidRequest, WorkspaceNotFound, RoleRequired, OfferNotPurchasable]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getOrder", "/api/v1/orders/:orderId")
      .setPath(OrderPath)
      .addSuccess(Data(CommerceOrder))
      .pipe(
        operation({
          id: "Commerce_GetOrder",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 500],
          summary: "Read one order, with its payments and entitlements",
          description: "One order with its payments and entitlements. Visible to the active members of the buying " +
            "workspace (any role) and of the workspace selling the order's offer (the seller reads the orders of its " +
            "offers, to fulfil and refund them); anyone else gets 404 `order-not-found`. " + moves,
          errors: [OrderNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("cancelOrder", "/api/v1/orders/:orderId/cancel")
      .setPath(OrderPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CancelOrderRequest)
      .addSuccess(Data(CommerceOrder))
      .pipe(
        operation({
          id: "Commerce_CancelOrder",
          permission: "commerce.buy",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500],
          summary: "Cancel an unpaid order",
          description: "Cancels a CREATED or PAYMENT_PENDING order of the caller's workspace at `expectedVersion` and " +
            "answers 200 with it CANCELLED; its open payments (CREATED, PENDING) become EXPIRED. Checks run in this " +
            "order: 404 `order-not-found` (not an order of the caller's workspaces), 403 `role-required`, 409 " +
            "`version-conflict`, 409 `invalid-state` (a payment was observed, or the order is paid or closed). A payment " +
            "confirmed later for a cancelled order puts it in MANUAL_REVIEW. " + moves,
          errors: [OrderNotFound, RoleRequired, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("refundOrder", "/api/v1/orders/:orderId/refund")
      .setPath(OrderPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(RefundOrderRequest)
      .addSuccess(Data(CommerceOrder), { status: 202 })
      .pipe(
        operation({
          id: "Commerce_RefundOrder",
          permission: "commerce.refund",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500, 503],
          summary: "Refund a paid order (seller or admin)",
          description: [
            "Refunds a PAID or ACTIVE order at `expectedVersion` and answers 202 with it: the order and its confirmed",
            "payment → REFUND_PENDING, then " + refundRails,
            "When the refund completes the order is REFUNDED and its entitlements REVOKED. The caller needs the OWNER, ADMIN",
            "or BILLING role in the workspace selling the order's offer (403 `role-required`), or is a platform",
            "administrator; an order the caller cannot see is 404 `order-not-found`. 409 `version-conflict` or",
            "`invalid-state`; 422 `refund-not-possible` when an on-chain payment's payer, the seller's payout address or",
            "the network is unknown (an administrator settles it by hand). `reason` is kept in the audit trail. " + moves
          ].join("\n"),
          errors: [OrderNotFound, RoleRequired, VersionConflict, InvalidState, Conflict, RefundNotPossible, ChainRpcUnavailable]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listEntitlements", "/api/v1/workspaces/:workspaceId/entitlements")
      .setPath(WorkspaceEntitlementsPath)
      .setUrlParams(ListEntitlementsQuery)
      .addSuccess(Page(WorkspaceEntitlement, 100))
      .pipe(
        operation({
          id: "Commerce_ListEntitlements",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 500],
          summary: "A workspace's entitlements (cursor pages)",
          description: "The entitlements of `workspaceId`'s orders (a workspace the caller is an active member of, else " +
            "404 `workspace-not-found`), newest first (`effectiveFrom`, then `id`), `limit` per page (1-100, default 25), " +
            "optionally only those in `state`. An entitlement is ACTIVE from payment until `effectiveUntil`, GRACE until " +
            "`graceUntil`, then EXPIRED, on the engine's durable clock; REVOKED when its order is refunded. Pass " +
            "`nextCursor` back as `cursor`; it is signed and bound to the workspace, the caller and `state` (400 " +
            "`invalid-cursor` otherwise).",
          errors: [WorkspaceNotFound, InvalidCursor]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("recordManualPayment", "/api/v1/admin/orders/:orderId/payments")
      .setPath(OrderPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(RecordManualPaymentRequest)
      .addSuccess(Data(CommerceOrder), { status: 201 })
      .pipe(
        operation({
          id: "Commerce_RecordManualPayment",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 422, 500],
          summary: "Record a payment received outside the service (admin)",
          description: "Records on the ADMIN rail a payment of `units` received for a CREATED or PAYMENT_PENDING order " +
            "(a bank transfer, an invoice), and answers 201 with the order: the payment is CONFIRMED at once, the order " +
            "PAID and, its entitlement activated, ACTIVE. `units` must be the order's `totalUnits` (422 " +
            "`payment-units-mismatch`); another state is 409 `invalid-state`. Admin only, with a recent sign-in or MFA " +
            "(sensitive); audit `order.manual_payment_recorded` with `note`. " + moves,
          errors: [OrderNotFound, InvalidState, PaymentUnitsMismatch, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("resolveOrderReview", "/api/v1/admin/orders/:orderId/review")
      .setPath(OrderPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(ResolveOrderReviewRequest)
      .addSuccess(Data(CommerceOrder))
      .pipe(
        operation({
          id: "Commerce_ResolveOrderReview",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 422, 500, 503],
          summary: "Resolve an order in MANUAL_REVIEW (admin)",
          description: [
            "Resolves a MANUAL_REVIEW order (a payment confirmed after it was cancelled or expired) at `expectedVersion`:",
            "`ACCEPT` keeps the payment (CONFIRMED) and the order is PAID and, its entitlement activated, ACTIVE;",
            "`REFUND` sends the payment back: order and payment REFUND_PENDING, then " + refundRails,
            "Admin only, with a recent sign-in or MFA (sensitive); audit `order.review_resolved` with `note`. 409",
            "`version-conflict` or `invalid-state` (not in MANUAL_REVIEW); 422 `refund-not-possible`. " + moves
          ].join("\n"),
          errors: [OrderNotFound, VersionConflict, InvalidState, Conflict, RefundNotPossible, ChainRpcUnavailable]
        })
      )
  )
  .annotate(OpenApi.Title, "Commerce")
  .annotate(OpenApi.Description, "Commerce: orders, payments and entitlements")
{}
