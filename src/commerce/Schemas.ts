/** Commerce area (spec §2.11, §4.3): orders with their payments and entitlements. */
import { Schema } from "effect"
import { DateTimeZ, Units, Uuid, Version } from "../../schema/common.js"

/** Commerce order states (spec §3). */
export const OrderState = Schema.Literal(
  "CREATED",
  "PAYMENT_PENDING",
  "PAYMENT_OBSERVED",
  "PAID",
  "FULFILLMENT_PENDING",
  "ACTIVE",
  "COMPLETED",
  "EXPIRED",
  "CANCELLED",
  "REFUND_PENDING",
  "REFUNDED",
  "MANUAL_REVIEW"
)

/** Payment states (spec §3). */
export const PaymentState = Schema.Literal(
  "CREATED",
  "PENDING",
  "OBSERVED",
  "CONFIRMED",
  "FAILED",
  "EXPIRED",
  "REFUND_PENDING",
  "REFUNDED",
  "MANUAL_REVIEW"
)

/** Holder benefit applied to an order; ppm = parts per million, bps = basis points. */
export const HolderBenefit = Schema.Struct({
  decisionId: Schema.NullOr(Uuid),
  benefitPolicyVersion: Schema.NullOr(Schema.Int.pipe(Schema.positive())),
  tierPolicyVersion: Schema.Int.pipe(Schema.positive()),
  tierCode: Schema.String,
  multiplierPpm: Schema.Int.pipe(Schema.between(0, 10_000_000)),
  discountBps: Schema.Int.pipe(Schema.between(0, 9999))
}).annotations({ identifier: "HolderBenefit" })

/** A payment of an order; `units` in the order asset's minor units. */
export const Payment = Schema.Struct({
  id: Uuid,
  rail: Schema.Literal("ONCHAIN", "X402", "PROCESSOR", "ADMIN"),
  state: PaymentState,
  units: Units,
  transactionIntentPublicId: Schema.NullOr(Uuid),
  transactionHash: Schema.NullOr(Schema.String),
  expiresAt: DateTimeZ
}).annotations({ identifier: "Payment" })

/** An entitlement granted by an order. */
export const Entitlement = Schema.Struct({
  id: Uuid,
  code: Schema.String,
  state: Schema.Literal("ACTIVE", "GRACE", "EXPIRED", "REVOKED"),
  source: Schema.Literal("ORDER", "SUBSCRIPTION", "STAKE_TIER", "ADMIN"),
  effectiveFrom: DateTimeZ,
  effectiveUntil: Schema.NullOr(DateTimeZ),
  policyVersion: Version
}).annotations({ identifier: "Entitlement" })

/** Commerce order (spec §2.11). Amounts are units (decimal strings of minor units). */
export const CommerceOrder = Schema.Struct({
  id: Uuid,
  orderNumber: Schema.String,
  state: OrderState,
  version: Version,
  workspacePublicId: Uuid,
  agentPublicId: Schema.NullOr(Uuid),
  productCode: Schema.String,
  productName: Schema.String,
  networkPublicId: Uuid,
  network: Schema.String,
  assetId: Uuid,
  symbol: Schema.NullOr(Schema.String),
  decimals: Schema.Int.pipe(Schema.between(0, 255)),
  subtotalUnits: Units,
  discountUnits: Units,
  totalUnits: Units,
  holderBenefit: Schema.NullOr(HolderBenefit),
  termsVersion: Version,
  policyVersion: Version,
  payments: Schema.Array(Payment),
  entitlements: Schema.Array(Entitlement),
  paidAt: Schema.NullOr(DateTimeZ),
  activatedAt: Schema.NullOr(DateTimeZ),
  expiresAt: Schema.NullOr(DateTimeZ),
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "CommerceOrder" })
export type CommerceOrder = typeof CommerceOrder.Type
