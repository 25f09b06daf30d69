/**
 * Orders, their cancellation and refund, the admin payment rail and a workspace's entitlements
 * (spec §2.11, §3): request bodies, paths, queries and the entitlement list item. The order
 * itself is `CommerceOrder` (`../Schemas.ts`).
 */
import { Schema } from "effect"
import { DateTimeZ, QueryInt, rule, StrictStruct, Units, Uuid, Version, WireString } from "../../../schema/common.js"
import { Entitlement } from "../Schemas.js"

/** Entitlement states (spec §3). */
export const EntitlementState = Schema.Literal("ACTIVE", "GRACE", "EXPIRED", "REVOKED")
export type EntitlementState = typeof EntitlementState.Type

/** Positive units (a decimal string of 1 to 78 digits, no leading zero). */
const PositiveUnits = Units.pipe(
  Schema.filter((u) => u > 0n, rule("must be a decimal string of a positive integer (units)"))
)

/**
 * Body of Commerce_CreateOrder: the offer price to buy (`offerPriceId`, an id of a price of a
 * PUBLISHED offer, effective now), how many (`quantity`, 1-1000, default 1) and, when the caller
 * is an active member of several workspaces, the buying workspace (`workspaceId`).
 */
export const CreateOrderRequest = StrictStruct({
  offerPriceId: Uuid,
  quantity: Schema.optionalWith(
    Schema.Int.pipe(Schema.between(1, 1000), Schema.annotations(rule("must be an integer 1-1000"))),
    { default: () => 1, exact: true }
  ),
  workspaceId: Schema.optionalWith(Uuid, { exact: true })
}).annotations({ identifier: "CreateOrderRequest" })
export type CreateOrderRequest = typeof CreateOrderRequest.Type

/** Body of Commerce_CancelOrder: the version the caller read. */
export const CancelOrderRequest = StrictStruct({
  expectedVersion: Version
}).annotations({ identifier: "CancelOrderRequest" })

/** Body of Commerce_RefundOrder: the version the caller read and why (kept in the audit trail). */
export const RefundOrderRequest = StrictStruct({
  expectedVersion: Version,
  reason: WireString(1, 500)
}).annotations({ identifier: "RefundOrderRequest" })

/**
 * Body of Commerce_RecordManualPayment (admin rail): the units received (minor units of the order's
 * asset; must be the order's `totalUnits`) and a note saying where they came from (bank transfer
 * reference, invoice; kept in the audit trail, never a secret).
 */
export const RecordManualPaymentRequest = StrictStruct({
  units: PositiveUnits,
  note: WireString(3, 500)
}).annotations({ identifier: "RecordManualPaymentRequest" })

/**
 * Body of Commerce_ResolveOrderReview: the version the caller read, the decision (`ACCEPT`: the
 * payment stands, the order is paid and activated; `REFUND`: the payment goes back through its
 * rail) and a note for the audit trail.
 */
export const ResolveOrderReviewRequest = StrictStruct({
  expectedVersion: Version,
  resolution: Schema.Literal("ACCEPT", "REFUND").annotations(rule("must be ACCEPT or REFUND")),
  note: WireString(3, 500)
}).annotations({ identifier: "ResolveOrderReviewRequest" })

/** Path of the operations on one order. */
export const OrderPath = Schema.Struct({ orderId: Uuid })

/** Path of Commerce_ListEntitlements. */
export const WorkspaceEntitlementsPath = Schema.Struct({ workspaceId: Uuid })

/** Query of Commerce_ListEntitlements. */
export const ListEntitlementsQuery = Schema.Struct({
  state: Schema.optionalWith(EntitlementState.annotations(rule("must be ACTIVE, GRACE, EXPIRED or REVOKED")), { exact: true }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true }),
  limit: QueryInt({ min: 1, max: 100, default: 25 })
})

/**
 * One entitlement of a workspace (Commerce_ListEntitlements): the order's entitlement item
 * (spec §2.11) with the order it came from, the offer and agent it unlocks, the end of its grace
 * period and its run metering (`runsUsed` of `runQuota`, null = unmetered).
 */
export const WorkspaceEntitlement = Schema.Struct({
  ...Entitlement.fields,
  orderId: Uuid,
  offerId: Schema.NullOr(Uuid),
  agentPublicId: Schema.NullOr(Uuid),
  graceUntil: Schema.NullOr(DateTimeZ),
  runsUsed: Schema.Int.pipe(Schema.nonNegative()),
  runQuota: Schema.NullOr(Schema.Int.pipe(Schema.nonNegative()))
}).annotations({ identifier: "WorkspaceEntitlement" })
export type WorkspaceEntitlement = typeof WorkspaceEntitlement.Type
