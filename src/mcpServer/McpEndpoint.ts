/**
 * The directory's own MCP server at `/mcp`: MCP 2025-06-18 Streamable
 * HTTP with stateful sessions (`Mcp-Session-Id`), on the service's HTTP router next to the
 * HttpApi, so the API-level middleware applies as to every route (request id, body limits
 * and media type, problem+json rendering, access log, security headers). Per HTTP request:
 *
 * 1. **Credential** (spec §5.3): anonymous, or an API key in `X-API-Key` or
 *    `Authorization: Bearer`, verified by the REST code (`apiKeyPrincipal` of
 *    src/http/AuthMiddleware.ts): a bad key, or a key used from an `Origin` it does not list,
 *    is the one identical 401 problem. Scopes are checked per tool call (the tool's
 *    operation's `x-required-scopes`; a missing one is a tool error `insufficient-scope`).
 * 2. **Origin** (spec §5.4, MCP's DNS-rebinding rule): a request with an `Origin` and no key is
 *    served only from an allowed origin: one of `ALLOWED_ORIGINS`, or (none listed) the origin
 *    of `PUBLIC_BASE_URL`, or a loopback origin (`localhost`, `127.0.0.1`, `[::1]`) naming this
 *    request's own host; else 403 `origin-not-allowed`. No CORS permission is granted on `/mcp`.
 * 3. **Budget** (spec §8): the request is charged to its credential's budget (the REST
 *    budgets, layers/RateBudget.ts): each `tools/call` its operation's `x-rate-cost`, each
 *    `resources/read` Agents_GetAgent's, any other request 1. Answers carry `RateLimit-Policy`
 *    and `RateLimit`; a spent budget is the REST answer, HTTP 429 `rate-limited` with
 *    `Retry-After`, before the message reaches the MCP server (an MCP client sees the
 *    transport error with status 429 and the problem body). Unlike REST reads that do not
 *    list 429, `/mcp` refuses every request once the budget is spent.
 * 4. **Session**: an `initialize` without `Mcp-Session-Id` opens a session (503
 *    `mcp-sessions-full` with `Retry-After` while `MCP_MAX_SESSIONS` are live); other requests
 *    need the header (else 400) naming a live session of the same credential (else 404: the
 *    client starts a new one); sessions idle for `MCP_SESSION_IDLE_SECONDS` end; `DELETE`
 *    ends one. Responses are JSON (`enableJsonResponse`); the server sends no unsolicited
 *    messages, so `GET` (the optional SSE stream) is 405.
 *
 * Logs: the access log writes method, path and status only, and the headers handed to the
 * SDK transport leave out `Authorization`, `X-API-Key` and `Cookie`, so a key reaches no log.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Either, Option, Runtime } from "effect"
import { randomBytes } from "node:crypto"
import { AppConfig, type AppConfigShape } from "../../layers/AppConfig.js"
import { Auth } from "../../layers/Auth.js"
import { now } from "../../layers/Clock.js"
import { RateBudget } from "../../layers/RateBudget.js"
import { CurrentRequest, currentRequest } from "../../layers/RequestContext.js"
import { InternalError, OriginNotAllowed } from "../../schema/errors.js"
import { isProblem, toDocument, withRequest } from "../../schema/problem.js"
import type { Principal } from "../api/security.js"
import { apiKeyPrincipal } from "../http/AuthMiddleware.js"
import { clientAddress } from "../http/ClientAddress.js"
import { dependencyProblem, isDependencyFailure } from "../http/DependencyFailure.js"
import { principalScope } from "../http/group.js"
import { budgetTarget, rateLimitHeaders, spentBudget } from "../http/RateBudgetMiddleware.js"
import { CallContextKey, makeDirectoryServer, type ToolRunner } from "./DirectoryServer.js"
import { McpSessionsFull } from "./Errors.js"
import { makeSessionTable } from "./Sessions.js"
import { AgentResourcePolicy, directoryTool, type ToolServices } from "./Tools.js"

/** Where the MCP server is served. */
export const McpPath = "/mcp"

/** Request headers never handed to the SDK transport (credentials: they must reach no log or handler). */
const withheldHeaders = new Set(["authorization", "x-api-key", "cookie", "host", "content-length", "transfer-encoding", "connection"])

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

/**
 * Whether a browser `origin` may call `/mcp` without an API key (see the module docs, step 2).
 * A DNS-rebinding page has its own origin and host, never a loopback name nor an allowed origin.
 */
export const mcpOriginAllowed = (origin: string, host: string | undefined, config: Pick<AppConfigShape, "allowedOrigins" | "publicBaseUrl">) => {
  if (config.allowedOrigins.length > 0) return config.allowedOrigins.includes(origin)
  try {
    const url = new URL(origin)
    if (url.origin === new URL(config.publicBaseUrl).origin) return true
    return loopbackHosts.has(url.hostname) && host !== undefined && url.host === host
  } catch {
    return false
  }
}

/** The budget cost of one POSTed body (one message or a batch): see the module docs, step 3. */
export const messageCost = (body: unknown): number => {
  const messages = Array.isArray(body) ? body : [body]
  let cost = 0
  for (const m of messages) {
    const message = m as { readonly method?: unknown; readonly params?: { readonly name?: unknown } } | null
    if (message?.method === "tools/call") {
      cost += directoryTool(String(message.params?.name))?.policy.cost ?? 1
    } else if (message?.method === "resources/read") cost += AgentResourcePolicy.cost
  }
  return Math.max(1, cost)
}

/** A JSON-RPC error answered by the endpoint itself (as the SDK transport words its own). */
const jsonRpcError = (status: number, message: string) =>
  HttpServerResponse.unsafeJson({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, {
    status,
    headers: { "cache-control": "no-store" }
  })

/**
 * Serves `/mcp` on the HttpApi router. Requires `Auth`, `RateBudget`, `AppConfig` and the
 * tools' services ({@link ToolServices}); ends every session when the server stops.
 */
export const McpEndpointLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    const budgets = yield* RateBudget
    const config = yield* AppConfig
    const runtime = yield* Effect.runtime<ToolServices>()
    const runPromise = Runtime.runPromise(runtime)
    const sessions = makeSessionTable<{ readonly close: () => Promise<void>; readonly transport: WebStandardStreamableHTTPServerTransport }>({
      maxSessions: config.mcpServer.maxSessions,
      idleMs: config.mcpServer.sessionIdleSeconds * 1000
    })
    yield* Effect.addFinalizer(() => Effect.sync(sessions.endAll))

    const run: ToolRunner = (effect, context) => {
      const info = { requestId: context.requestId, instance: context.instance }
      return runPromise(
        effect.pipe(
          Effect.map(Either.right),
          Effect.catchAllCause((cause) => {
            const error = Option.getOrElse(Cause.failureOption(cause), () => Cause.squash(cause))
            if (isProblem(error)) return Effect.succeed(Either.left(toDocument(withRequest(error, info))))
            const problem = isDependencyFailure(error)
              ? dependencyProblem(Option.none())
              : new InternalError({ detail: "An unexpected error occurred; quote the requestId when reporting it." })
            return Effect.logError("MCP call failed", cause).pipe(
              Effect.annotateLogs({ requestId: info.requestId }),
              Effect.as(Either.left(toDocument(withRequest(problem, info))))
            )
          }),
          Effect.locally(CurrentRequest, info)
        )
      )
    }

    /** A new session's transport and server, registered in `sessions` once initialized. */
    const openSession = (owner: string, nowMs: number) => {
      const server = makeDirectoryServer(config.buildVersion, run)
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        // 192 random bits: the id is the session's only handle (it is also bound to its credential)
        sessionIdGenerator: () => randomBytes(24).toString("base64url"),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          sessions.add({ id, owner, lastSeenMs: nowMs, resources: { transport, close: () => server.close() } })
        },
        onsessionclosed: (id) => sessions.end(id)
      })
      return Effect.as(Effect.promise(() => server.connect(transport)), { server, transport })
    }

    /** Hands the request to `transport` as a web request (credential headers withheld), with the call context. */
    const forward = (
      transport: WebStandardStreamableHTTPServerTransport,
      request: HttpServerRequest.HttpServerRequest,
      body: unknown,
      principal: Principal
    ) =>
      Effect.flatMap(currentRequest, (info) => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(request.headers)) {
          if (!withheldHeaders.has(name)) headers.set(name, value)
        }
        const web = new Request(new URL(McpPath, "http://mcp.invalid"), { method: request.method, headers })
        const authInfo = {
          token: "",
          clientId: principalScope(principal),
          scopes: principal._tag === "ApiKey" ? [...principal.scopes] : [],
          extra: { [CallContextKey]: { principal, requestId: info.requestId, instance: info.instance } }
        }
        return Effect.map(
          Effect.promise(() => transport.handleRequest(web, body === undefined ? { authInfo } : { parsedBody: body, authInfo })),
          HttpServerResponse.fromWeb
        )
      })

    const handle = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const key = yield* apiKeyPrincipal(auth, request)
      const origin = request.headers["origin"]
      if (Option.isNone(key) && origin !== undefined && !mcpOriginAllowed(origin, request.headers["host"], config)) {
        return yield* new OriginNotAllowed({ detail: `Origin ${origin} is not allowed to use the MCP server.` })
      }
      const principal: Principal = Option.getOrElse(key, (): Principal => ({ _tag: "Anonymous" }))
      const body: unknown = request.method === "POST" ? yield* request.json : undefined

      const charged = yield* budgets.charge({
        ...budgetTarget(config, principal, () => clientAddress(request, config.trustedProxyHops)),
        cost: body === undefined ? 1 : messageCost(body)
      })
      if (Option.isSome(charged)) {
        const c = charged.value
        yield* HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeaders(response, rateLimitHeaders(c))))
        if (c.retryAfterSeconds !== undefined) return yield* spentBudget(c, c.retryAfterSeconds)
      }

      const owner = principalScope(principal)
      const nowMs = (yield* now).getTime()
      const sessionId = request.headers["mcp-session-id"]
      if (sessionId === undefined) {
        const initializing = request.method === "POST" &&
          (Array.isArray(body) ? (body as ReadonlyArray<JSONRPCMessage>).some(isInitializeRequest) : isInitializeRequest(body))
        if (!initializing) return jsonRpcError(400, "Bad Request: Mcp-Session-Id header is required")
        const room = sessions.reserve(nowMs)
        if (!room.ok) {
          return yield* new McpSessionsFull({
            detail: `The MCP server has ${config.mcpServer.maxSessions} live sessions, its limit; retry later.`,
            retryAfter: room.retryAfterSeconds
          })
        }
        return yield* Effect.gen(function*() {
          const opened = yield* openSession(owner, nowMs)
          const response = yield* forward(opened.transport, request, body, principal)
          // an initialize that failed opened no session: release its server
          if (opened.transport.sessionId === undefined) yield* Effect.promise(() => opened.server.close())
          return response
        }).pipe(Effect.ensuring(Effect.sync(room.release)))
      }
      const session = sessions.lookup(sessionId, owner, nowMs)
      if (session === undefined) return jsonRpcError(404, "Session not found")
      const response = yield* forward(session.resources.transport, request, body, principal)
      if (request.method === "DELETE") sessions.end(sessionId)
      return response
    })

    yield* router.post(McpPath, handle)
    yield* router.del(McpPath, handle)
    yield* router.get(
      McpPath,
      Effect.succeed(HttpServerResponse.empty({ status: 405, headers: { allow: "POST, DELETE", "cache-control": "no-store" } }))
    )
  })
)
