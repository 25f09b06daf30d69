/**
 * Charges each operation's x-rate-cost (spec §8) to the budget of the request's
 * credential, after authentication: anonymous per client address, API key per key,
 * session per account (sizes in `AppConfig.budgets`). Every charged response carries
 * `RateLimit-Policy` and `RateLimit`. On operations that list 429 a spent budget
 * fails with `TooManyRequests` (429, `Retry-After`); the others are charged and
 * report, but are never refused.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { TooManyRequests } from "../../schema/problem.js"
import { AppConfig, type AppConfigShape } from "../../layers/AppConfig.js"
import { type Charged, limitHeaderItem, policyHeaderItem, RateBudget } from "../../layers/RateBudget.js"
import { BudgetCharging, BudgetRefusing } from "../api/budget.js"
import { Operations } from "../api/policies.js"
import { CurrentPrincipal, type Principal } from "../api/security.js"
import { clientAddress } from "./ClientAddress.js"

/** The budget a principal's requests are charged to: per API key, per account, or per client address. */
export const budgetTarget = (config: AppConfigShape, principal: Principal, address: () => string) =>
  principal._tag === "ApiKey"
    ? { name: "api-key", subject: principal.apiKeyId, budget: config.budgets.apiKey }
    : principal._tag === "Session"
    ? { name: "session", subject: principal.accountId, budget: config.budgets.session }
    : { name: "anonymous", subject: address(), budget: config.budgets.anonymous }

/** The `RateLimit-Policy` and `RateLimit` response headers of a charge. */
export const rateLimitHeaders = (c: Charged) => ({ "ratelimit-policy": policyHeaderItem(c), ratelimit: limitHeaderItem(c) })

const makeCharge = Effect.gen(function*() {
  const budgets = yield* RateBudget
  const config = yield* AppConfig
  const operations = yield* Operations
  /** Charges the current operation; fails with `TooManyRequests` only when `refuse` and the budget is spent. */
  return (refuse: boolean) =>
    Effect.gen(function*() {
      const { policy } = yield* operations.current
      const request = yield* HttpServerRequest.HttpServerRequest
      const principal = yield* Effect.serviceOption(CurrentPrincipal)
      const p = Option.getOrElse(principal, (): Principal => ({ _tag: "Anonymous" }))
      const target = budgetTarget(config, p, () => clientAddress(request, config.trustedProxyHops))
      const charged = yield* budgets.charge({ ...target, cost: policy.cost })
      if (Option.isNone(charged)) return
      const c = charged.value
      yield* HttpApp.appendPreResponseHandler((_, response) =>
        Effect.succeed(HttpServerResponse.setHeaders(response, rateLimitHeaders(c)))
      )
      if (refuse && c.retryAfterSeconds !== undefined) {
        return yield* new TooManyRequests({
          kind: "rate-limited",
          detail: `The ${c.name} request budget (${c.budget.limit} per ${c.budget.windowSeconds} s) is spent; retry later.`,
          retryAfter: c.retryAfterSeconds
        })
      }
    })
})

/** The two budget middlewares (see `src/api/budget.ts`). Requires `RateBudget`, `AppConfig`, `Operations`. */
export const RateBudgetMiddlewareLive = Layer.mergeAll(
  Layer.effect(BudgetCharging, Effect.map(makeCharge, (charge) => Effect.orDie(charge(false)))),
  Layer.effect(BudgetRefusing, Effect.map(makeCharge, (charge) => charge(true)))
)
