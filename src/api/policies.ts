/**
 * The operation table derived from the contract: for a matched route (method +
 * path pattern), its {@link OperationPolicy} and endpoint. The auth middleware and
 * the idempotency layer read it, so the contract is the single source of both.
 */
import { HttpApi, type HttpApiEndpoint, HttpApiSchema, HttpRouter } from "@effect/platform"
import { Context, Effect, Option } from "effect"
import { Api } from "./Api.js"
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

const table = new Map<string, Operation>()

/**
 * Indexes the operations of an HttpApi built with the `operation` helper. The
 * contract's {@link Api} is indexed here; an app that mounts further groups with
 * their own operations (or a test) registers its api too.
 */
export const registerOperations = (api: HttpApi.HttpApi.Any): void =>
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const policy = Context.getOption(endpoint.annotations, Policy)
      if (Option.isNone(policy)) return
      table.set(`${endpoint.method} ${endpoint.path}`, {
        policy: policy.value,
        endpoint: endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
        successStatus: HttpApiSchema.getStatusSuccess(endpoint.successSchema),
        pathPattern: new RegExp(
          `^${endpoint.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")}$`
        )
      })
    }
  })

registerOperations(Api)

/** Every operation, keyed by `METHOD /path/:param`. */
export const operations: ReadonlyMap<string, Operation> = table

/** The operation of the route being served. Dies if the route is not an operation (a wiring bug). */
export const currentOperation: Effect.Effect<Operation, never, HttpRouter.RouteContext> = Effect.map(
  HttpRouter.RouteContext,
  ({ route }) => {
    const op = table.get(`${route.method} ${route.path}`)
    if (op === undefined) throw new Error(`no operation for route ${route.method} ${route.path}`)
    return op
  }
)

/**
 * The operation a request addresses, found by method and path outside the router
 * (the request middleware uses it to say where an invalid input is).
 */
export const operationOf = (method: string, path: string): Option.Option<Operation> =>
  Option.fromNullable([...table.values()].find((op) => op.endpoint.method === method && op.pathPattern.test(path)))
