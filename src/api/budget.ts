/**
 * Budget contract (spec §8 x-rate-cost): the middleware that charges every
 * operation's cost to its credential's budget and reports the `RateLimit` headers.
 * Two tags so that only the operations whose status list has 429 declare it
 * (status lists are authoritative): {@link BudgetRefusing} answers a spent budget
 * with 429, {@link BudgetCharging} charges and reports but never refuses.
 */
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import { Schema } from "effect"
import type { RateLimited } from "../../schema/errors.js"
import { raisedOnly } from "../../schema/problem.js"

/** Charges the budget; never refuses. */
export class BudgetCharging extends HttpApiMiddleware.Tag<BudgetCharging>()("BudgetCharging", {
  failure: Schema.Never
}) {}

/**
 * Charges the budget; a spent budget fails with 429 `rate-limited` and `Retry-After`
 * (declared on the endpoint by `operation()`, with the operation's other 429 causes).
 */
export class BudgetRefusing extends HttpApiMiddleware.Tag<BudgetRefusing>()("BudgetRefusing", {
  failure: raisedOnly<RateLimited>()
}) {}
