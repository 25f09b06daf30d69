/**
 * The directory's A2A interface (A2A protocol 1.0): the agent of its card
 * (`/.well-known/agent-card.json`, src/http/DirectoryAgentCard.ts), with the skills `search`
 * and `resolve` (src/a2aServer/DirectoryAgent.ts), served by `@a2a-js/sdk`'s server
 * (`DefaultRequestHandler`) through two protocol bindings, on the service's HTTP router
 * (not a second server), so the API-level middleware applies as to every route (request id,
 * body limits and media type, problem+json rendering, access log, security headers):
 *
 * - **JSON-RPC** (`POST /a2a/jsonrpc`): the SDK's `JsonRpcTransportHandler`, given the
 *   request's body and a `ServerCallContext` (the `A2A-Version` and `A2A-Extensions`
 *   headers, checked against the card's interfaces as the SDK's own JSON-RPC handler does);
 * - **HTTP+JSON** (`/a2a/rest/...`, e.g. `POST /a2a/rest/message:send`): the SDK's REST
 *   handler (`restHandler`, an Express router: the SDK offers its HTTP+JSON binding only so),
 *   called in process with the request (`light-my-request`: no socket, no second server); its
 *   answer becomes this route's response.
 *
 * Per HTTP request, as `/mcp` (src/mcpServer/McpEndpoint.ts) does:
 *
 * 1. **Credential** (spec §5.3): anonymous, or an API key in `X-API-Key` or
 *    `Authorization: Bearer` (`apiKeyPrincipal`): a bad key is the one identical 401 problem.
 *    Scopes are checked per skill call (the operation's `x-required-scopes`; a missing one is
 *    a `insufficient-scope` problem in the answer message). Credential headers are never
 *    handed to the SDK: the principal reaches the skill through the call context.
 * 2. **Origin** (spec §5.4): a request with an `Origin` and no key is served only from an
 *    allowed origin (`keylessOriginAllowed`, src/http/ProtocolCaller.ts), else 403 `origin-not-allowed`; no CORS permission.
 * 3. **Budget** (spec §8): the request is charged to its credential's budget (the REST
 *    budgets): a message (`SendMessage`, `message:send`) its skill's operation `x-rate-cost`,
 *    any other request 1. Answers carry `RateLimit-Policy` and `RateLimit`; a spent budget is
 *    HTTP 429 `rate-limited` with `Retry-After` before the SDK sees the request.
 *
 * Answers are `Cache-Control: no-store`. The agent keeps no tasks (every message is answered
 * by one message), and the card declares no streaming or push notifications, so the SDK
 * answers those methods with its own errors (`UnsupportedOperationError`, ...).
 */
import { AgentCard, Extensions } from "@a2a-js/sdk"
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
  type User,
  validateVersion
} from "@a2a-js/sdk/server"
import { restHandler } from "@a2a-js/sdk/server/express"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import express from "express"
import inject from "light-my-request"
import { randomBytes } from "node:crypto"
import { AppConfig } from "../../layers/AppConfig.js"
import { Auth } from "../../layers/Auth.js"
import { RateBudget } from "../../layers/RateBudget.js"
import { currentRequest } from "../../layers/RequestContext.js"
import type { Principal } from "../api/security.js"
import { chargeProtocolRequest, protocolPrincipal } from "../http/ProtocolCaller.js"
import { DirectoryPaths, directoryAgentCard } from "../http/DirectoryAgentCard.js"
import { principalScope } from "../http/group.js"
import { type CallContext, makeToolRunner, type ToolServices } from "../mcpServer/index.js"
import { A2aCallContextKey, makeDirectoryAgentExecutor, skillOf, skillTool } from "./DirectoryAgent.js"


/**
 * Gives an Express app request and response prototypes of its own, copies of Express's. Called
 * with an Express app, `light-my-request` re-parents the prototype of `app.request` onto its own
 * `Request` (and of `app.response` onto its `Response`) so that Express's methods reach its
 * objects. By default that prototype is Express's module-wide `express.request` (and `response`),
 * shared by every Express app of the process: re-parented, a real server's requests would no longer
 * be `http.IncomingMessage`s. With its own copies, only this app's change.
 */
const ownPrototypes = <App extends { request: object; response: object }>(app: App): App => {
  for (const key of ["request", "response"] as const) {
    const shared = Object.getPrototypeOf(app[key]) as object
    const own = Object.create(Object.getPrototypeOf(shared), Object.getOwnPropertyDescriptors(shared)) as object
    Object.setPrototypeOf(app[key], own)
  }
  return app
}
/** Request headers handed to the SDK (protocol headers only: never a credential). */
const forwardedHeaders = ["content-type", "accept", "a2a-version", "a2a-extensions"] as const
/** Response headers of the SDK kept on the answer. */
const answeredHeaders = ["a2a-extensions"] as const
/** The header naming a call's context for the in-process REST handler (set by this endpoint only). */
const CallHeader = "x-agent-directory-call"

const message = (value: unknown): { readonly metadata?: unknown } | undefined =>
  typeof value === "object" && value !== null && "message" in value ? (value as { message: never }).message : undefined

/** The budget cost of a request (see the module docs, step 3): `binding` is how its `body` (parsed JSON, or undefined) is to be read. */
export const a2aRequestCost = (binding: "JSONRPC" | "HTTP+JSON", path: string, body: unknown): number => {
  const sent = binding === "JSONRPC"
    ? (body as { method?: unknown } | null)?.method === "SendMessage" ? message((body as { params?: unknown }).params) : undefined
    : path.endsWith("/message:send") ? message(body) : undefined
  return sent === undefined ? 1 : skillTool(skillOf(sent.metadata))?.policy.cost ?? 1
}

/** The SDK's user of a principal (its tasks, were there any, are scoped by `userName`). */
const userOf = (principal: Principal): User => ({
  isAuthenticated: principal._tag !== "Anonymous",
  userName: principalScope(principal)
})

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * Serves the A2A interface on the HttpApi router. Requires `Auth`, `RateBudget`, `AppConfig`
 * and the skills' services ({@link ToolServices}).
 */
export const A2aEndpointLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    const budgets = yield* RateBudget
    const config = yield* AppConfig
    const run = makeToolRunner(yield* Effect.runtime<ToolServices>())
    const card = AgentCard.fromJSON(directoryAgentCard(config.publicBaseUrl))
    const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), makeDirectoryAgentExecutor(run))
    const jsonRpc = new JsonRpcTransportHandler(handler)

    // the REST binding: the SDK's Express router, called in process; each call's principal by a one-use id
    const calls = new Map<string, CallContext>()
    const callOf = (headers: Record<string, unknown>): CallContext => {
      const call = calls.get(String(headers[CallHeader]))
      if (call === undefined) throw new Error("A2A REST call without its context")
      return call
    }
    const rest = ownPrototypes(express())
    rest.disable("x-powered-by")
    rest.set("etag", false)
    rest.use(restHandler({
      requestHandler: handler,
      userBuilder: async (req) => userOf(callOf(req.headers).principal),
      contextBuilder: (options) =>
        new ServerCallContext({
          ...(options.extensions === undefined ? {} : { requestedExtensions: options.extensions }),
          ...(options.user === undefined ? {} : { user: options.user }),
          ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
          ...(options.requestedVersion === undefined ? {} : { requestedVersion: options.requestedVersion }),
          state: new Map([[A2aCallContextKey, callOf(options.headers as Record<string, unknown>)]])
        })
    }))

    /** Credential, origin and budget (module docs, steps 1-3): the caller's context and the request's body. */
    const admit = (binding: "JSONRPC" | "HTTP+JSON", path: string) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const principal = yield* protocolPrincipal(auth, config, request, "the A2A interface")
        const text = request.method === "GET" || request.method === "DELETE" ? "" : yield* request.text
        yield* chargeProtocolRequest(budgets, config, request, principal, a2aRequestCost(binding, path, parseJson(text)))
        const info = yield* currentRequest
        const call: CallContext = { principal, requestId: info.requestId, instance: info.instance, clientAddress: info.clientAddress }
        return { request, text, call }
      })

    const noStore = { "cache-control": "no-store" }

    const handleJsonRpc = Effect.gen(function*() {
      const { request, text, call } = yield* admit("JSONRPC", DirectoryPaths.a2aJsonRpc)
      const body = parseJson(text)
      const context = new ServerCallContext({
        requestedExtensions: Extensions.parseServiceParameter(request.headers["a2a-extensions"]),
        user: userOf(call.principal),
        ...(request.headers["a2a-version"] === undefined ? {} : { requestedVersion: request.headers["a2a-version"] }),
        state: new Map([[A2aCallContextKey, call]])
      })
      const id = (body as { id?: unknown } | undefined)?.id
      const failed = (error: unknown) => ({
        jsonrpc: "2.0",
        id: typeof id === "string" || typeof id === "number" ? id : null,
        error: JsonRpcTransportHandler.mapToJSONRPCError(error)
      })
      const answer = yield* Effect.promise(async () => {
        try {
          // the SDK's JSON-RPC handler checks the requested version against the card, as its Express handler does
          validateVersion(context.requestedVersion, card, "JSONRPC")
          const out = await jsonRpc.handle(body === undefined ? text : (body as Record<string, unknown>), context)
          if (Symbol.asyncIterator in out) {
            // streaming methods: the card declares no streaming, so the SDK fails them on the first event
            const events: Array<unknown> = []
            try {
              for await (const event of out) events.push(event)
            } catch (error) {
              if (events.length === 0) return { json: failed(error) }
              events.push(failed(error))
            }
            return { sse: events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") }
          }
          return { json: out }
        } catch (error) {
          return { json: failed(error) }
        }
      })
      const headers: Record<string, string> = { ...noStore }
      if (context.activatedExtensions !== undefined) headers["a2a-extensions"] = [...context.activatedExtensions].join(", ")
      return "sse" in answer
        ? HttpServerResponse.text(answer.sse, { contentType: "text/event-stream", headers })
        : HttpServerResponse.unsafeJson(answer.json, { headers })
    })

    const handleRest = Effect.gen(function*() {
      const url = new URL(
        (yield* HttpServerRequest.HttpServerRequest).url,
        "http://a2a.invalid"
      )
      const path = url.pathname.slice(DirectoryPaths.a2aRest.length) || "/"
      const { request, text, call } = yield* admit("HTTP+JSON", path)
      const id = randomBytes(18).toString("base64url")
      const headers: Record<string, string> = { [CallHeader]: id }
      for (const name of forwardedHeaders) {
        const value = request.headers[name]
        if (value !== undefined) headers[name] = value
      }
      calls.set(id, call)
      const reply = yield* Effect.promise(() =>
        inject(rest, {
          method: request.method as "GET",
          url: path + url.search,
          headers,
          ...(text === "" ? {} : { payload: text })
        })
      ).pipe(Effect.ensuring(Effect.sync(() => calls.delete(id))))
      const answered: Record<string, string> = { ...noStore }
      for (const name of answeredHeaders) {
        const value = reply.headers[name]
        if (value !== undefined) answered[name] = Array.isArray(value) ? value.join(", ") : String(value)
      }
      const contentType = reply.headers["content-type"]
      return reply.statusCode === 204 || reply.payload === ""
        ? HttpServerResponse.empty({ status: reply.statusCode, headers: answered })
        : HttpServerResponse.text(reply.payload, {
          status: reply.statusCode,
          contentType: typeof contentType === "string" ? contentType : "application/json",
          headers: answered
        })
    })

    yield* router.post(DirectoryPaths.a2aJsonRpc, handleJsonRpc)
    yield* router.get(
      DirectoryPaths.a2aJsonRpc,
      Effect.succeed(HttpServerResponse.empty({ status: 405, headers: { allow: "POST", ...noStore } }))
    )
    yield* router.all(`${DirectoryPaths.a2aRest}/*`, handleRest)
  })
)
