/**
 * The problem causes of orders, their refunds and the admin rail (the shared ones are in
 * `schema/errors.ts`, the settlement's and `OrderNotFound` in `../Errors.ts`). Each is one `Schema.TaggedError` (see
 * `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 422 `payment-units-mismatch`: a manual payment records other units than the order's total. */
export class PaymentUnitsMismatch extends Problem<PaymentUnitsMismatch>()("PaymentUnitsMismatch", {
  status: 422, type: "payment-units-mismatch", meaning: "a manual payment must record exactly the order's total units"
}) {}

/**
 * 422 `refund-not-possible`: the order's payment cannot be sent back through its rail (an on-chain
 * payment whose payer, seller payout address or token is not known, or a network that is not
 * configured); an administrator settles it by hand.
 */
export class RefundNotPossible extends Problem<RefundNotPossible>()("RefundNotPossible", {
  status: 422, type: "refund-not-possible",
  meaning: "the order's payment cannot be sent back through its rail (payer, payout address or network unknown)"
}) {}
