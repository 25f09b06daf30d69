/**
 * `group`: the one way to implement a group of operations (use it instead of
 * `HttpApiBuilder.group`, with the same arguments). `build` receives our own
 * {@link Handlers} (the framework's `handle` / `handleRaw`, same types), which records
 * the handlers; `group` then adds each one to the framework's `Handlers` with its public
 * `handle`, wrapped from its endpoint's contract, so no handler can forget the rules
 * below and none repeats them:
 *
 * - Idempotency policy (spec §4.1), read from the endpoint's headers schema:
 *   `IdempotencyKeyRequired` → required (a request without the key never reaches the
 *   handler: 400 `idempotency-key-required`), `IdempotencyKeyOptional` → optional, no
 *   `idempotency-key` header → none. With a key, the call runs through
 *   `layers/Idempotency.ts`: scope = principal + operationId + key, fingerprint =
 *   method, path and the decoded `path`, `urlParams` and `payload` (never assembled by
 *   a handler); replays, 409 `idempotency-key-reuse` and 409
 *   `idempotency-request-in-flight` (with `Retry-After`) come from there.
 * - One transaction: a command (any method but GET/HEAD) runs in one
 *   `sql.withTransaction`, together with its idempotency record. Services may open
 *   nested transactions (savepoints) freely. A typed failure rolls the command's
 *   writes back (a write that must survive a refusal, such as an attempt counter,
 *   does not belong in the handler's effect). SQL failures are defects (rendered by
 *   the request middleware as 503/500).
 *
 * The pattern every endpoint copies:
 *
 * ```ts
 * export const ServicesHttpLive = group(Api, "Services", (handlers) =>
 *   Effect.gen(function*() {
 *     const services = yield* Services
 *     const envelope = yield* Envelope
 *     return handlers.handle("publishServiceOffer", ({ path, payload }) =>
 *       Effect.flatMap(currentSession, (s) => services.publish({ ... }).pipe(Effect.flatMap(envelope.data))))
 *   }))
 * ```
 *
 * An endpoint annotated with `ReplayAs` (src/api/replay.ts) stores, and so replays,
 * that form of its success instead of the first response; one annotated with
 * `LocationOf` (src/api/location.ts) answers its success, replays included, with a
 * `Location` header.
 *
 * `handleRaw` (the handler reads the body itself) is refused on operations with an
 * idempotency policy: the fingerprint needs the decoded payload.
 */
import type { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer, Option, Schema } from "effect"
import * as AST from "effect/SchemaAST"
import { Idempotency, IdempotencyConflict } from "../../layers/Idempotency.js"
import { currentRequest } from "../../layers/RequestContext.js"
import { Policy } from "../api/operation.js"
import { LocationOf } from "../api/location.js"
import { ReplayAs } from "../api/replay.js"
import { CurrentPrincipal, type Principal } from "../api/security.js"
import { problemResponse } from "./RequestMiddleware.js"

/** An operation's Idempotency-Key policy (spec §4.1). */
export type IdempotencyPolicy = "required" | "optional" | "none"

/** The Idempotency-Key policy an endpoint's headers schema declares. */
export const idempotencyPolicyOf = (
  endpoint: { readonly headersSchema: Option.Option<{ readonly ast: AST.AST }> }
): IdempotencyPolicy =>
  Option.match(endpoint.headersSchema, {
    onNone: () => "none",
    onSome: (schema) => {
      const header = AST.getPropertySignatures(schema.ast).find((p) => p.name === "idempotency-key")
      return header === undefined ? "none" : header.isOptional ? "optional" : "required"
    }
  })

/** The idempotency scope of a principal: keys of different principals never meet. */
export const principalScope = (p: Principal): string =>
  p._tag === "Session" ? `account:${p.accountId}` : p._tag === "ApiKey" ? `api-key:${p.apiKeyId}` : "anonymous"

/** What `HttpApiBuilder` hands a handler: the raw request and the decoded parts. */
interface DecodedRequest {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly path?: unknown
  readonly urlParams?: unknown
  readonly payload?: unknown
  readonly headers?: { readonly "idempotency-key"?: string | undefined }
}

type Handler<E, R> = (request: DecodedRequest) => Effect.Effect<unknown, E, R>

const readMethods = new Set(["GET", "HEAD"])

const isSqlError = (e: unknown): e is SqlError => e instanceof SqlError

/** Wraps one endpoint's handler with its idempotency policy and the one transaction. */
const makeWrap = (sql: SqlClient.SqlClient, idempotency: Idempotency["Type"]) =>
<E, R>(endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps, handler: Handler<E, R>): Handler<E, R> => {
  const policy = idempotencyPolicyOf(endpoint)
  if (readMethods.has(endpoint.method) && policy === "none") return handler
  const operationId = Option.match(Context.getOption(endpoint.annotations, Policy), {
    onNone: () => `${endpoint.method} ${endpoint.path}`,
    onSome: (p) => p.operationId
  })
  const successStatus = HttpApiSchema.getStatusSuccess(endpoint.successSchema)
  // several success schemas (e.g. 201 created, 200 replaced): a value's status is its first matching schema's
  const successMembers = new Set<Schema.Schema.Any>()
  HttpApiSchema.deunionize(successMembers, endpoint.successSchema)
  const statusOf = successMembers.size < 2 ? undefined : (success: unknown) => {
    for (const member of successMembers) {
      if (Schema.is(member as Schema.Schema<unknown>)(success)) return HttpApiSchema.getStatusSuccessAST(member.ast)
    }
    return successStatus
  }
  // contract schemas need no context: the endpoint type only erases it
  const encode = Schema.encodeUnknown(endpoint.successSchema as Schema.Schema<unknown, unknown>)
  // what is stored is what a replay answers: the endpoint's ReplayAs form, when it declares one
  const encodeSuccess = Option.match(Context.getOption(endpoint.annotations, ReplayAs), {
    onNone: () => encode,
    onSome: (replayAs) => (success: unknown) => encode(replayAs(success))
  })
  return (request) => {
    const key = request.headers?.["idempotency-key"]
    // the idempotency layer's transaction is the outermost one: it commits a stored 4xx before failing with it
    const run = policy === "none" || key === undefined ? sql.withTransaction(handler(request)) : Effect.gen(function*() {
      const principal = yield* Effect.serviceOption(CurrentPrincipal)
      return yield* idempotency.run({
        operationId,
        principal: Option.match(principal, { onNone: () => "anonymous", onSome: principalScope }),
        key,
        request: {
          method: request.request.method,
          path: request.request.url.split("?")[0],
          input: { path: request.path, urlParams: request.urlParams, payload: request.payload }
        },
        successStatus,
        statusOf,
        encodeSuccess
      }, handler(request))
    }).pipe(
      Effect.catchIf(
        (e): e is IdempotencyConflict => e instanceof IdempotencyConflict,
        (conflict) => Effect.map(currentRequest, (info) => problemResponse(conflict, info))
      )
    )
    return withLocation(endpoint, successStatus, Effect.catchIf(run, isSqlError, Effect.die))
  }
}

/** The JSON of a replayed (or otherwise pre-rendered) response's body, or undefined. */
const bodyJson = (response: HttpServerResponse.HttpServerResponse): unknown => {
  if (response.body._tag !== "Uint8Array") return undefined
  try {
    return JSON.parse(new TextDecoder().decode(response.body.body))
  } catch {
    return undefined
  }
}

/**
 * Adds the `Location` header of an endpoint annotated with `LocationOf` to its success,
 * first answer and replay alike (a replay is a pre-rendered response with the success status).
 */
const withLocation = <A, E, R>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  successStatus: number,
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Option.match(Context.getOption(endpoint.annotations, LocationOf), {
    onNone: () => self,
    onSome: (locationOf) =>
      Effect.tap(self, (result) => {
        const location = HttpServerResponse.isServerResponse(result)
          ? (result.status === successStatus ? locationOf(bodyJson(result)) : undefined)
          : locationOf(result)
        return location === undefined ? Effect.void : HttpApp.appendPreResponseHandler((_, response) =>
          Effect.succeed(response.status === successStatus ? HttpServerResponse.setHeader(response, "location", location) : response))
      })
  })

type Options = { readonly uninterruptible?: boolean | undefined } | undefined

declare const EndpointsId: unique symbol

/**
 * What `build` receives instead of the framework's `HttpApiBuilder.Handlers`: the same
 * `handle` / `handleRaw` with the same types (the endpoints not handled yet, the
 * handlers' requirements), but our own object. It only records the handlers; {@link group}
 * then adds each one, wrapped (see the module docs), with the framework's public
 * `handlers.handle` / `handleRaw`.
 */
export interface Handlers<E, Provides, R, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any = never> {
  /** Type-level only: the endpoints still to handle (no value at run time). */
  readonly [EndpointsId]?: (_: never) => Endpoints
  readonly group: HttpApiGroup.HttpApiGroup.AnyWithProps
  readonly items: ReadonlyArray<Item>

  /** Implements endpoint `name` (as `HttpApiBuilder.Handlers.handle`). */
  handle<Name extends HttpApiEndpoint.HttpApiEndpoint.Name<Endpoints>, R1>(
    name: Name,
    handler: HttpApiEndpoint.HttpApiEndpoint.HandlerWithName<Endpoints, Name, E, R1>,
    options?: Options
  ): Handlers<
    E,
    Provides,
    R | Exclude<HttpApiEndpoint.HttpApiEndpoint.ExcludeProvided<Endpoints, Name, R1 | HttpApiEndpoint.HttpApiEndpoint.ContextWithName<Endpoints, Name>>, Provides>,
    HttpApiEndpoint.HttpApiEndpoint.ExcludeName<Endpoints, Name>
  >

  /**
   * Implements endpoint `name` with the full request (as `HttpApiBuilder.Handlers.handleRaw`).
   * Refused (throws) on an operation with an idempotency policy.
   */
  handleRaw<Name extends HttpApiEndpoint.HttpApiEndpoint.Name<Endpoints>, R1>(
    name: Name,
    handler: HttpApiEndpoint.HttpApiEndpoint.HandlerRawWithName<Endpoints, Name, E, R1>,
    options?: Options
  ): Handlers<
    E,
    Provides,
    R | Exclude<HttpApiEndpoint.HttpApiEndpoint.ExcludeProvided<Endpoints, Name, R1 | HttpApiEndpoint.HttpApiEndpoint.ContextWithName<Endpoints, Name>>, Provides>,
    HttpApiEndpoint.HttpApiEndpoint.ExcludeName<Endpoints, Name>
  >
}

/** One recorded handler. */
interface Item {
  readonly name: string
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly raw: boolean
  readonly handler: Handler<unknown, unknown>
  readonly options: Options
}

export declare namespace Handlers {
  /** The handlers `build` starts from: as `HttpApiBuilder.Handlers.FromGroup`. */
  export type FromGroup<ApiError, ApiR, Group extends HttpApiGroup.HttpApiGroup.Any> = Handlers<
    ApiError | HttpApiGroup.HttpApiGroup.Error<Group>,
    HttpApiMiddleware.HttpApiMiddleware.ExtractProvides<ApiR> | HttpApiGroup.HttpApiGroup.Provides<Group>,
    never,
    HttpApiGroup.HttpApiGroup.Endpoints<Group>
  >

  /** `A` if it handles every endpoint (as `HttpApiBuilder.Handlers.ValidateReturn`). */
  export type ValidateReturn<A> = A extends
    | Handlers<infer _E, infer _P, infer _R, infer _Endpoints>
    | Effect.Effect<Handlers<infer _E, infer _P, infer _R, infer _Endpoints>, infer _EX, infer _RX>
    ? [_Endpoints] extends [never] ? A : `Endpoint not handled: ${HttpApiEndpoint.HttpApiEndpoint.Name<_Endpoints>}`
    : `Must return the implemented handlers`

  /** What `build` returns, as the framework's handlers (all endpoints handled). */
  export type ToFramework<A> = A extends Handlers<infer E, infer P, infer R, infer _Endpoints>
    ? HttpApiBuilder.Handlers<E, P, R>
    : A extends Effect.Effect<Handlers<infer E, infer P, infer R, infer _Endpoints>, infer EX, infer RX>
      ? Effect.Effect<HttpApiBuilder.Handlers<E, P, R>, EX, RX>
    : never
}

const makeHandlers = (group: HttpApiGroup.HttpApiGroup.AnyWithProps, items: ReadonlyArray<Item>) => {
  const endpointOf = (name: string): HttpApiEndpoint.HttpApiEndpoint.AnyWithProps => {
    const endpoint = group.endpoints[name]
    if (endpoint === undefined) throw new Error(`no endpoint ${name} in group ${group.identifier}`)
    return endpoint
  }
  return {
    group,
    items,
    handle: (name: string, handler: Handler<unknown, unknown>, options?: Options) =>
      makeHandlers(group, [...items, { name, endpoint: endpointOf(name), raw: false, handler, options }]),
    handleRaw: (name: string, handler: Handler<unknown, unknown>, options?: Options) => {
      const endpoint = endpointOf(name)
      if (idempotencyPolicyOf(endpoint) !== "none") {
        throw new Error(`${name} has an idempotency policy: implement it with handle, not handleRaw`)
      }
      return makeHandlers(group, [...items, { name, endpoint, raw: true, handler, options }])
    }
  }
}

/** The framework's `Handlers` seen through the two methods {@link group} calls (generic types erased). */
interface FrameworkHandlers {
  readonly handle: (name: string, handler: Handler<unknown, unknown>, options?: Options) => FrameworkHandlers
  readonly handleRaw: (name: string, handler: Handler<unknown, unknown>, options?: Options) => FrameworkHandlers
}

/**
 * Implements the group `groupName` of `api`, like `HttpApiBuilder.group`, with every
 * handler wrapped by its operation's idempotency policy and transaction (see the
 * module docs). `build` receives our {@link Handlers} (the same `handle` / `handleRaw`
 * as the framework's). Requires, besides the handlers' own needs, `Idempotency` and
 * `SqlClient`.
 */
export const group = <
  ApiId extends string,
  Groups extends HttpApiGroup.HttpApiGroup.Any,
  ApiError,
  ApiR,
  const Name extends HttpApiGroup.HttpApiGroup.Name<Groups>,
  Return
>(
  api: HttpApi.HttpApi<ApiId, Groups, ApiError, ApiR>,
  groupName: Name,
  build: (
    handlers: Handlers.FromGroup<ApiError, ApiR, HttpApiGroup.HttpApiGroup.WithName<Groups, Name>>
  ) => Handlers.ValidateReturn<Return>
) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const wrap = makeWrap(yield* SqlClient.SqlClient, yield* Idempotency)
    const apiGroup = (api as unknown as HttpApi.HttpApi.AnyWithProps).groups[groupName]!
    return HttpApiBuilder.group<ApiId, Groups, ApiError, ApiR, Name, Handlers.ToFramework<Return>>(
      api,
      groupName,
      (framework) => {
        const built = build(makeHandlers(apiGroup, []) as unknown as Handlers.FromGroup<ApiError, ApiR, HttpApiGroup.HttpApiGroup.WithName<Groups, Name>>) as unknown
        const add = ({ items }: { readonly items: ReadonlyArray<Item> }) =>
          items.reduce(
            (handlers, { endpoint, handler, name, options, raw }) =>
              raw ? handlers.handleRaw(name, wrap(endpoint, handler), options) : handlers.handle(name, wrap(endpoint, handler), options),
            framework as unknown as FrameworkHandlers
          )
        // the record of every endpoint's handler is checked by the types (ValidateReturn); the framework's own
        // Handlers' types are not recomputed here, only cast to the type of what build returned
        return (Effect.isEffect(built)
          ? Effect.map(built as Effect.Effect<{ readonly items: ReadonlyArray<Item> }>, add)
          : add(built as { readonly items: ReadonlyArray<Item> })) as unknown as HttpApiBuilder.Handlers.ValidateReturn<Handlers.ToFramework<Return>>
      }
    )
  }))
