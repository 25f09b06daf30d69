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
 *    `resources/read` Agents_GetAgent's, any other message 1; a JSON-RPC batch (step 5) the
 *    sum of its messages' costs, a refused one 1. Answers carry `RateLimit-Policy`
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
 * 5. **Batches**: a JSON-RPC batch (a JSON array) is served only in a session whose negotiated
 *    revision is one of {@link BatchingRevisions} (2025-03-26, the one revision with batches:
 *    2025-06-18 removed them, and later revisions have none), each message charged (step 3).
 *    Any other batch, or one outside a session, is refused before it reaches the MCP server:
 *    HTTP 400 with the JSON-RPC error `-32600` (Invalid Request), as the SDK transport
 *    answers other invalid requests.
 *
 * Logs: the access log writes method, path and status only, and the headers handed to the
 * SDK transport leave out `Authorization`, `X-API-Key` and `Cookie`, so a key reaches no log.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { AppConfig } from "../../layers/AppConfig.js"
import { McpServerSettings } from "./Config.js"
import { Auth } from "../../layers/Auth.js"
import { now } from "../../layers/Clock.js"
import { RateBudget } from "../../layers/RateBudget.js"
import { currentRequest } from "../../layers/RequestContext.js"
import type { Principal } from "../api/security.js"
import { DirectoryPaths } from "../http/DirectoryAgentCard.js"
import { chargeProtocolRequest, protocolPrincipal } from "../http/ProtocolCaller.js"
import { principalScope } from "../http/group.js"
import { CallContextKey, makeDirectoryServer, type ToolRunner } from "./DirectoryServer.js"
import { McpSessionsFull } from "./Errors.js"
import { makeSessionTable } from "./Sessions.js"
import { makeToolRunner } from "./ToolRunner.js"
import { AgentResourcePolicy, directoryTool, type ToolServices } from "./Tools.js"

/** Where the MCP server is served. */
export const McpPath = DirectoryPaths.mcp

/** Request headers never handed to the SDK transport (credentials: they must reach no log or handler). */
const withheldHeaders = new Set(["authorization", "x-api-key", "cookie", "host", "content-length", "transfer-encoding", "connection"])

/**
 * The MCP revisions whose Streamable HTTP transport carries JSON-RPC batches: 2025-03-26 only
 * (MCP 2025-03-26 "Transports"; 2025-06-18 removed batching). A revision not listed, including
 * every later one, gets its batches refused (module docs, step 5).
 */
export const BatchingRevisions: ReadonlySet<string> = new Set(["2025-03-26"])

/** The budget cost of one JSON-RPC message: see the module docs, step 3. */
const costOf = (m: unknown): number => {
  const message = m as { readonly method?: unknown; readonly params?: { readonly name?: unknown } } | null
  if (message?.method === "tools/call") return Math.max(1, directoryTool(String(message.params?.name))?.policy.cost ?? 1)
  if (message?.method === "resources/read") return Math.max(1, AgentResourcePolicy.cost)
  return 1
}

/**
 * The budget cost of one POSTed body (module docs, step 3): a message's cost, or for a batch
 * the sum of its messages' costs (at least 1), each charged as if it came alone.
 */
export const messageCost = (body: unknown): number =>
  Array.isArray(body) ? Math.max(1, body.reduce((sum: number, m) => sum + costOf(m), 0)) : costOf(body)

/** A JSON-RPC error answered by the endpoint itself (as the SDK transport words its own; `code` -32000 unless given). */
const jsonRpcError = (status: number, message: string, code = -32000) =>
  HttpServerResponse.unsafeJson({ jsonrpc: "2.0", error: { code, message }, id: null }, {
    status,
    headers: { "cache-control": "no-store" }
  })

/** JSON-RPC's Invalid Request error code (JSON-RPC 2.0 §5.1). */
const InvalidRequest = -32600

/**
 * Serves `/mcp` on the HttpApi router. Requires `Auth`, `RateBudget`, `AppConfig`, `McpServerSettings` and the
 * tools' services ({@link ToolServices}); ends every session when the server stops.
 */
export const McpEndpointLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    const budgets = yield* RateBudget
    const config = yield* AppConfig
    const settings = yield* McpServerSettings
    const runtime = yield* Effect.runtime<ToolServices>()
    const sessions = makeSessionTable<{
      readonly close: () => Promise<void>
      readonly transport: WebStandardStreamableHTTPServerTransport
      /** The MCP revision the session's `initialize` negotiated. */
      readonly protocolVersion: string
    }>({
      maxSessions: settings.mcpServer.maxSessions,
      idleMs: settings.mcpServer.sessionIdleSeconds * 1000
    })
    yield* Effect.addFinalizer(() => Effect.sync(sessions.endAll))

    const run: ToolRunner = makeToolRunner(runtime)

    /** A new session's transport and server (registered in `sessions` once its `initialize` is answered). */
    const openSession = () => {
      const server = makeDirectoryServer(config.buildVersion, run)
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        // 192 random bits: the id is the session's only handle (it is also bound to its credential)
        sessionIdGenerator: () => randomBytes(24).toString("base64url"),
        enableJsonResponse: true,
        onsessionclosed: (id) => sessions.end(id)
      })
      return Effect.as(Effect.promise(() => server.connect(transport)), { server, transport })
    }

    /** The `protocolVersion` of an `initialize` answer (a JSON response: `enableJsonResponse`); "" when it has none. */
    const negotiatedVersion = (answer: Response) =>
      Effect.promise(() =>
        answer.clone().json().then(
          (json: unknown) => {
            const version = (json as { readonly result?: { readonly protocolVersion?: unknown } } | null)?.result?.protocolVersion
            return typeof version === "string" ? version : ""
          },
          () => ""
        )
      )

    /** Hands the request to `transport` as a web request (credential headers withheld), with the call context: its web answer. */
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
          extra: { [CallContextKey]: { principal, requestId: info.requestId, instance: info.instance, clientAddress: info.clientAddress } }
        }
        return Effect.promise(() => transport.handleRequest(web, body === undefined ? { authInfo } : { parsedBody: body, authInfo }))
      })

    const handle = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const principal = yield* protocolPrincipal(auth, config, request, "the MCP server")
      const body: unknown = request.method === "POST" ? yield* request.json : undefined
      const owner = principalScope(principal)
      const nowMs = (yield* now).getTime()
      const sessionId = request.headers["mcp-session-id"]
      const session = sessionId === undefined ? undefined : sessions.lookup(sessionId, owner, nowMs)
      // step 5: a batch only in a live session of a revision with batches
      const batchRefused = Array.isArray(body) &&
        (body.length === 0 || session === undefined || !BatchingRevisions.has(session.resources.protocolVersion))

      yield* chargeProtocolRequest(budgets, config, request, principal, body === undefined || batchRefused ? 1 : messageCost(body))
      if (batchRefused) return jsonRpcError(400, "Invalid Request: JSON-RPC batches are not supported", InvalidRequest)

      if (sessionId === undefined) {
        const initializing = request.method === "POST" && isInitializeRequest(body as JSONRPCMessage)
        if (!initializing) return jsonRpcError(400, "Bad Request: Mcp-Session-Id header is required")
        const room = sessions.reserve(nowMs)
        if (!room.ok) {
          return yield* new McpSessionsFull({
            detail: `The MCP server has ${settings.mcpServer.maxSessions} live sessions, its limit; retry later.`,
            retryAfter: room.retryAfterSeconds
          })
        }
        return yield* Effect.gen(function*() {
          const opened = yield* openSession()
          const answer = yield* forward(opened.transport, request, body, principal)
          const id = opened.transport.sessionId
          if (id !== undefined) {
            const { server, transport } = opened
            const protocolVersion = yield* negotiatedVersion(answer)
            sessions.add({ id, owner, lastSeenMs: nowMs, resources: { transport, close: () => server.close(), protocolVersion } })
          } else {
            // an initialize that failed opened no session: release its server
            yield* Effect.promise(() => opened.server.close())
          }
          return HttpServerResponse.fromWeb(answer)
        }).pipe(Effect.ensuring(Effect.sync(room.release)))
      }
      if (session === undefined) return jsonRpcError(404, "Session not found")
      const answer = yield* forward(session.resources.transport, request, body, principal)
      if (request.method === "DELETE") sessions.end(sessionId)
      return HttpServerResponse.fromWeb(answer)
    })

    yield* router.post(McpPath, handle)
    yield* router.del(McpPath, handle)
    yield* router.get(
      McpPath,
      Effect.succeed(HttpServerResponse.empty({ status: 405, headers: { allow: "POST, DELETE", "cache-control": "no-store" } }))
    )
  })
)
