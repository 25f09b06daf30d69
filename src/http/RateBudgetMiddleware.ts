/**
 * Charges each operation's x-rate-cost (spec §8) to the budget of the request's
 * credential, after authentication: anonymous per client address, API key per key,
 * session per account (sizes in `AppConfig.budgets`). Every charged response carries
 * `RateLimit-Policy` and `RateLimit`. On operations that list 429 a spent budget
 * fails with `RateLimited` (429, `Retry-After`); the others are charged and
 * report, but are never refused.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Context, Effect, Layer, Option } from "effect"
import { RateLimited } from "../../schema/errors.js"
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

/** The 429 `rate-limited` of a charge that did not fit (`retryAfter` seconds, the `Retry-After` header). */
export const spentBudget = (c: Charged, retryAfter: number): RateLimited =>
  new RateLimited({
    detail: `The ${c.name} request budget (${c.budget.limit} per ${c.budget.windowSeconds} s) is spent; retry later.`,
    retryAfter
  })

const anonymous: Principal = { _tag: "Anonymous" }

const makeCharge = Effect.gen(function*() {
  const budgets = yield* RateBudget
  const config = yield* AppConfig
  const operations = yield* Operations
  /**
   * Charges the current operation; fails with `RateLimited` only when `refuse` and the budget is spent.
   * Runs on every request: one context read and a flatMap chain, not Effect.gen.
   */
  return (refuse: boolean) =>
    Effect.contextWithEffect((context: Context.Context<HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest>) => {
      const { policy } = operations.of(Context.get(context, HttpRouter.RouteContext))
      const request = Context.get(context, HttpServerRequest.HttpServerRequest)
      // CurrentPrincipal is provided by the auth middleware when it ran (optional here)
      const principal = Option.getOrElse(Context.getOption(context, CurrentPrincipal), () => anonymous)
      const target = budgetTarget(config, principal, () => clientAddress(request, config.trustedProxyHops))
      return Effect.flatMap(budgets.charge({ ...target, cost: policy.cost }), (charged) => {
        if (Option.isNone(charged)) return Effect.void
        const c = charged.value
        const reported = HttpApp.appendPreResponseHandler((_, response) =>
          Effect.succeed(HttpServerResponse.setHeaders(response, rateLimitHeaders(c)))
        )
        if (!refuse || c.retryAfterSeconds === undefined) return reported
        return Effect.zipRight(
          reported,
          Effect.fail(spentBudget(c, c.retryAfterSeconds))
        )
      })
    })
})

/** The two budget middlewares (see `src/api/budget.ts`). Requires `RateBudget`, `AppConfig`, `Operations`. */
export const RateBudgetMiddlewareLive = Layer.mergeAll(
  Layer.effect(BudgetCharging, Effect.map(makeCharge, (charge) => Effect.orDie(charge(false)))),
  Layer.effect(BudgetRefusing, Effect.map(makeCharge, (charge) => charge(true)))
)
