/**
 * The one helper that turns an `HttpApiEndpoint` into a spec operation (spec §4.1):
 * it stamps the operationId and the `x-*` extensions, attaches the auth middleware
 * of the auth mode, declares exactly the problem statuses the spec lists and, under
 * each, the problem causes the operation can answer with (its own `errors` plus the
 * shared mechanisms'), records the {@link OperationPolicy} the auth middleware
 * enforces, and documents the operation (description, problem types per status,
 * demo examples; see `./docs.ts`).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context } from "effect"
import type { Permission } from "../../schema/roles.js"
import { type ProblemClass, problemSchema, type ProblemStatus } from "../../schema/problem.js"
import { causesByStatus, documentOperation, mechanismCauses } from "./docs.js"
import { BudgetCharging, BudgetRefusing } from "./budget.js"
import { PublicAuth, SessionAuth } from "./security.js"

/** x-auth-mode (spec §4.1). */
export type AuthMode = "public" | "optional-user" | "required-user" | "required-admin"
/** x-cache-policy (spec §4.1). */
export type CachePolicy = "none" | "private" | "public-catalog"

/** What the auth middleware enforces for one operation. */
export interface OperationPolicy {
  readonly operationId: string
  readonly auth: AuthMode
  readonly cache: CachePolicy
  /** x-required-scopes: every scope an API key must carry. Empty = session-only. */
  readonly scopes: ReadonlyArray<string>
  /** x-rate-cost (spec §8). */
  readonly cost: number
  /** Sensitive action (spec §5.2): needs a recently authenticated session. */
  readonly sensitive: boolean
  /**
   * The workspace permission (schema/roles.ts) the caller's role must hold, if the
   * operation acts in a workspace; the handler checks it (403 `role-required`), the docs
   * name it and test/architecture/Roles.test.ts walks it.
   */
  readonly permission?: Permission
}

/** Annotation holding an endpoint's {@link OperationPolicy}. */
export class Policy extends Context.Tag("agent-directory/OperationPolicy")<Policy, OperationPolicy>() {}

/** `Cache-Control` header value per x-cache-policy. */
export const cacheControl: Record<CachePolicy, string> = {
  none: "no-store",
  private: "private, no-cache",
  "public-catalog": "public, max-age=300, stale-while-revalidate=60"
}

type WithAuth<E extends HttpApiEndpoint.HttpApiEndpoint.Any, M extends AuthMode> = M extends
  "required-user" | "required-admin" ? HttpApiEndpoint.HttpApiEndpoint.AddContext<E, SessionAuth | BudgetCharging | BudgetRefusing>
  : HttpApiEndpoint.HttpApiEndpoint.AddContext<E, PublicAuth | BudgetCharging | BudgetRefusing>

/**
 * Makes `endpoint` the spec operation `id`.
 *
 * @param options.statuses the error statuses spec §4 lists for the operation (success excluded)
 * @param options.permission the workspace permission (schema/roles.ts) the operation needs;
 *   the docs append a sentence naming it and its roles
 * @param options.description what the operation does and its rules (markdown); the
 *   permission sentence and the problem types of each status are appended to it
 * @param options.errors the problem causes the operation's handler can fail with; each one's
 *   status must be in `statuses` (checked by the type, and again here). The endpoint's
 *   error type is their union. The causes of the shared mechanisms (decoding, body,
 *   auth, CSRF, idempotency, cursors, rate limit, failures) are added from the endpoint
 *   and its policy, and a listed status with no cause gets its generic one
 *   (`GenericProblems`)
 */
export const operation = <
  const M extends AuthMode,
  const S extends ReadonlyArray<ProblemStatus>,
  const Errs extends ReadonlyArray<ProblemClass<string, S[number]>> = readonly []
>(options: {
  readonly id: `${string}_${string}`
  readonly auth: M
  readonly cache: CachePolicy
  readonly scopes?: ReadonlyArray<string>
  readonly cost?: number
  readonly sensitive?: boolean
  readonly permission?: Permission
  readonly statuses: S
  readonly summary?: string
  readonly description: string
  readonly errors?: Errs
}) =>
<E extends HttpApiEndpoint.HttpApiEndpoint.Any>(
  endpoint: E
): HttpApiEndpoint.HttpApiEndpoint.AddError<WithAuth<E, M>, InstanceType<Errs[number]>, never> => {
  const statuses: ReadonlyArray<ProblemStatus> = options.statuses
  const own: ReadonlyArray<ProblemClass> = options.errors ?? []
  for (const cause of own) {
    if (!statuses.includes(cause.status)) {
      throw new Error(`${options.id} declares ${cause._tag} (${cause.status}), a status it does not list`)
    }
  }
  const policy: OperationPolicy = {
    operationId: options.id,
    auth: options.auth,
    cache: options.cache,
    scopes: options.scopes ?? [],
    cost: options.cost ?? 1,
    sensitive: options.sensitive ?? false,
    ...(options.permission !== undefined ? { permission: options.permission } : {})
  }
  const session = options.auth === "required-user" || options.auth === "required-admin"
  const extensions = {
    "x-auth-mode": policy.auth,
    "x-cache-policy": policy.cache,
    "x-required-scopes": policy.scopes,
    "x-rate-cost": policy.cost,
    "x-stability": "STABLE",
    ...(policy.sensitive ? { "x-sensitive": true } : {}),
    // anonymous access is allowed unless a session is required
    ...(session ? {} : { security: [{}, { apiKeyAuth: [] }, ...(options.auth === "optional-user" ? [{ cookieAuth: [] }] : [])] })
  }
  // the first middleware added runs innermost: the budget is charged after authentication,
  // to the authenticated credential; only operations that list 429 refuse a spent budget
  const unbudgeted = endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  const base = statuses.includes(429) ? unbudgeted.middleware(BudgetRefusing) : unbudgeted.middleware(BudgetCharging)
  // the auth and budget middlewares only type what they raise; which of those causes this
  // operation can answer depends on it and its policy, so they are declared here with its own
  // every operation passes the auth middleware, which may answer 401 and 403 whatever the
  // operation lists (an invalid or under-scoped API key on a public read)
  const answered = [...statuses, ...([401, 403] as const).filter((s) => !statuses.includes(s))]
  const causes = causesByStatus(answered, own, mechanismCauses(base, policy))
  let e = (session ? base.middleware(SessionAuth) : base.middleware(PublicAuth))
    .annotate(Policy, policy)
    .annotateContext(OpenApi.annotations({
      identifier: options.id,
      override: extensions,
      transform: documentOperation(base, policy, options.description, causes),
      ...(options.summary !== undefined ? { summary: options.summary } : {})
    }))
  for (const [, classes] of causes) for (const cause of classes) e = e.addError(problemSchema(cause))
  return e as never
}
