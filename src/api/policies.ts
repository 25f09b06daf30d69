/**
 * The operation table derived from a contract: for a matched route (method + path
 * pattern), its {@link OperationPolicy} and endpoint. The auth and request middleware
 * read it through the {@link Operations} service, built from the HttpApi the app
 * serves ({@link OperationsLive}), so the contract is the single source of both and
 * an app (or a test) serving another api passes that api.
 */
import type { HttpApiEndpoint } from "@effect/platform"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as HttpRouter from "@effect/platform/HttpRouter"
import { Context, Effect, Layer, Option } from "effect"
import { type OperationPolicy, Policy } from "./operation.js"

/** One operation of the contract. */
export interface Operation {
  readonly policy: OperationPolicy
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  /** The success status (200, 201 or 202). */
  readonly successStatus: number
  /** Matches a concrete request path of this operation. */
  readonly pathPattern: RegExp
}

/** The operations of one HttpApi. */
export interface OperationTable {
  /** Every operation, keyed by `METHOD /path/:param`. */
  readonly byRoute: ReadonlyMap<string, Operation>
  /** The operation of the route being served. Dies if the route is not an operation (a wiring bug). */
  readonly current: Effect.Effect<Operation, never, HttpRouter.RouteContext>
  /** {@link current} of a given route context, without an effect. Throws if the route is not an operation. */
  readonly of: (context: HttpRouter.RouteContext) => Operation
  /** The operation a request addresses, found by method and concrete path outside the router. */
  readonly find: (method: string, path: string) => Option.Option<Operation>
}

/** Indexes the operations (endpoints built with the `operation` helper) of `api`. */
export const operationTable = (api: HttpApi.HttpApi.Any): OperationTable => {
  const byRoute = new Map<string, Operation>()
  // HttpApi.reflect only reads the api; `Any` hides the props it walks
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const policy = Context.getOption(endpoint.annotations, Policy)
      if (Option.isNone(policy)) return
      byRoute.set(`${endpoint.method} ${endpoint.path}`, {
        policy: policy.value,
        endpoint: endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
        successStatus: HttpApiSchema.getStatusSuccess(endpoint.successSchema),
        pathPattern: new RegExp(
          `^${endpoint.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")}$`
        )
      })
    }
  })
  const all = [...byRoute.values()]
  const of = ({ route }: HttpRouter.RouteContext) => {
    const op = byRoute.get(`${route.method} ${route.path}`)
    if (op === undefined) throw new Error(`no operation for route ${route.method} ${route.path}`)
    return op
  }
  return {
    byRoute,
    current: Effect.map(HttpRouter.RouteContext, of),
    of,
    find: (method, path) => Option.fromNullable(all.find((op) => op.endpoint.method === method && op.pathPattern.test(path)))
  }
}

/** The operation table of the api being served. */
export class Operations extends Context.Tag("agent-directory/Operations")<Operations, OperationTable>() {}

/** {@link Operations} of `api`. */
export const OperationsLive = (api: HttpApi.HttpApi.Any): Layer.Layer<Operations> =>
  Layer.sync(Operations, () => operationTable(api))
