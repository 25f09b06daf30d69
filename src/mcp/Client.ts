/**
 * Fetching an MCP server's catalog (MCP 2025-06-18: lifecycle, tools, resources,
 * prompts, pagination) with the reference client, `@modelcontextprotocol/sdk`'s
 * `Client`, over the guarded outbound fetch (`layers/Outbound.ts`):
 *
 * 1. `initialize`: the server's `serverInfo` (our `serverIdentity`), `capabilities` and
 *    the negotiated `protocolVersion`;
 * 2. every page (`nextCursor`) of `tools/list`, `resources/list`,
 *    `resources/templates/list` and `prompts/list`, each only when the server's
 *    capabilities announce `tools`, `resources` or `prompts` (an unannounced list is `[]`).
 *
 * Transports: `STREAMABLE_HTTP`, `SSE` (the 2024-11-05 HTTP+SSE transport) or `AUTO`:
 * Streamable HTTP first and, when its `initialize` POST is answered with a 4xx other than
 * 401 (an older server: 404, 405, …), the SSE transport, as the MCP specification's
 * "Backwards compatibility" section and the SDK's client guide describe.
 *
 * Every request is bounded by `timeoutMs`, the whole fetch by {@link WholeFetchRequests}
 * times that, and each list by {@link MaxPages} pages (a cursor seen twice ends it too). A 401 is not a crash but {@link CatalogFetchFailure} `auth-required`
 * carrying the `resource_metadata` URL of the `WWW-Authenticate` challenge (RFC 9728 §5.1),
 * where the OAuth helper starts its discovery.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { SseError, SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js"
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js"
import { Data, Effect, Option, Redacted } from "effect"
import { outboundFailureCodes, outboundFailureOf } from "../../layers/Outbound.js"
import type { CatalogContent } from "./catalog/Digest.js"

/** How a connection reaches its server (stored in `mcp_connections.transport`). */
export type McpTransport = "STREAMABLE_HTTP" | "SSE" | "AUTO"

/** The most pages read of one list: a server that keeps answering a `nextCursor` is cut off as a protocol error. */
export const MaxPages = 100

/** The whole fetch is bounded by this many request timeouts (a slow server's many pages are cut off as `timeout`). */
export const WholeFetchRequests = 20

/** What a fetch observed: the catalog's content, the transport that answered, and the page counts. */
export interface ObservedCatalog extends CatalogContent {
  readonly transport: "STREAMABLE_HTTP" | "SSE"
  /** Pages read of each list (0 when the capability was not announced). */
  readonly pages: { readonly tools: number; readonly resources: number; readonly resourceTemplates: number; readonly prompts: number }
}

/**
 * Why a catalog could not be fetched. `code`: `auth-required` (the server answered 401),
 * `target-refused` (the outbound rules refuse the URL or a redirect's target, or the server
 * redirected off its origin), `response-too-large`, `timeout`,
 * `network-error`, `http-<status>` (another HTTP status) or `protocol-error` (not a
 * conforming MCP server). `resourceMetadataUrl`: of the 401's challenge, when it named one.
 */
export class CatalogFetchFailure extends Data.TaggedError("CatalogFetchFailure")<{
  readonly code: string
  readonly resourceMetadataUrl: Option.Option<string>
}> {}

/** The `resource_metadata` parameter of a `WWW-Authenticate: Bearer …` challenge (RFC 9728 §5.1), if any. */
export const resourceMetadataOf = (challenge: string | null): Option.Option<string> => {
  const match = challenge === null ? null : /resource_metadata\s*=\s*(?:"([^"]*)"|([^\s,]+))/i.exec(challenge)
  const url = match === null ? undefined : (match[1] ?? match[2])
  return url === undefined || url === "" ? Option.none() : Option.some(url)
}

/**
 * What the fetch saw: the server's HTTP answers (a 401 ends the fetch as `auth-required`), and
 * the last refusal or network failure the guarded fetch threw, or a read of a response body
 * did. The SSE transport's event source turns a failed fetch or stream into an error event
 * carrying only a message, so the cause is kept here, where the fetch is made.
 */
interface Watch {
  unauthorized: boolean
  challenge: string | null
  failed: unknown
}

/** Redirect statuses: one that reaches the transport as an error is a redirect the client did not follow. */
const redirectStatuses = new Set([301, 302, 303, 307, 308])

/**
 * Maps a thrown value to its failure code. A redirect the MCP client does not follow (one
 * leaving the server's origin: the SDK's same-origin redirect policy) is `target-refused`, as
 * a redirect the outbound rules refuse is.
 */
const failureCode = (error: unknown, watch: Watch): string => {
  if (watch.unauthorized) return "auth-required"
  const outbound = outboundFailureOf(error) ?? outboundFailureOf(watch.failed)
  if (outbound !== undefined) return outboundFailureCodes[outbound.reason]
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return "timeout"
  const status = httpStatusOf(error)
  if (status !== undefined) return redirectStatuses.has(status) ? "target-refused" : `http-${status}`
  if (isNetworkError(error) || isNetworkError(watch.failed)) return "network-error"
  return "protocol-error"
}

/** Socket-level failure codes of Node and undici (refused, reset, unresolvable, …). */
const networkCodes = /^(?:E[A-Z]+|UND_ERR_[A-Z_]+)$/

/** True when the cause chain holds a socket-level failure (WHATWG fetch throws `TypeError("fetch failed")` over it). */
const isNetworkError = (error: unknown): boolean => {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    const code = (e as { readonly code?: unknown }).code
    if (typeof code === "string" && networkCodes.test(code)) return true
    if (e instanceof TypeError && e.message === "fetch failed") return true
    e = (e as { readonly cause?: unknown }).cause
  }
  return false
}

/**
 * The HTTP status a transport error reports, if it is one: 3xx to 5xx (the SSE transport also
 * reports a 200 whose content type is not `text/event-stream`: a protocol error).
 */
const httpStatusOf = (error: unknown): number | undefined => {
  const code = error instanceof StreamableHTTPError || error instanceof SseError
    ? (error as { readonly code?: unknown }).code
    : undefined
  return typeof code === "number" && code >= 300 && code <= 599 ? code : undefined
}

/** Reads every page of one list; `read(cursor)` answers one page. */
const allPages = async <T>(
  read: (cursor: string | undefined) => Promise<{ readonly items: ReadonlyArray<T>; readonly nextCursor?: string | undefined }>
): Promise<{ readonly items: Array<T>; readonly pages: number }> => {
  const items: Array<T> = []
  const seen = new Set<string>()
  let cursor: string | undefined = undefined
  for (let pages = 1;; pages++) {
    const page = await read(cursor)
    items.push(...page.items)
    if (page.nextCursor === undefined) return { items, pages }
    if (seen.has(page.nextCursor) || pages >= MaxPages) throw new Error("the server's list pagination does not end")
    seen.add(page.nextCursor)
    cursor = page.nextCursor
  }
}

/** A connected client over `transport`, handed to `use`; closed either way. */
const connected = async <A>(
  transport: Transport,
  timeoutMs: number,
  use: (client: Client, protocolVersion: () => string | undefined) => Promise<A>
): Promise<A> => {
  let protocolVersion: string | undefined
  const setProtocolVersion = transport.setProtocolVersion?.bind(transport)
  transport.setProtocolVersion = (version: string) => {
    protocolVersion = version
    setProtocolVersion?.(version)
  }
  const client = new Client({ name: "agent-directory", version: "1.0.0" }, { capabilities: {} })
  try {
    await client.connect(transport, { timeout: timeoutMs, maxTotalTimeout: timeoutMs })
    return await use(client, () => protocolVersion)
  } finally {
    await client.close().catch(() => undefined)
  }
}

/** One connect + lists over a connected client. */
const observe = async (
  client: Client,
  protocolVersion: string | undefined,
  kind: "STREAMABLE_HTTP" | "SSE",
  timeoutMs: number
): Promise<ObservedCatalog> => {
  const options = { timeout: timeoutMs, maxTotalTimeout: timeoutMs }
  const capabilities = client.getServerCapabilities() ?? {}
  const serverIdentity = client.getServerVersion() ?? {}
  const none = { items: [], pages: 0 }
  const tools = capabilities.tools
    ? await allPages((cursor) => client.listTools(cursor ? { cursor } : {}, options).then((r) => ({ items: r.tools, nextCursor: r.nextCursor })))
    : none
  const resources = capabilities.resources
    ? await allPages((cursor) =>
      client.listResources(cursor ? { cursor } : {}, options).then((r) => ({ items: r.resources, nextCursor: r.nextCursor }))
    )
    : none
  const resourceTemplates = capabilities.resources
    ? await allPages((cursor) =>
      client.listResourceTemplates(cursor ? { cursor } : {}, options).then((r) => ({
        items: r.resourceTemplates,
        nextCursor: r.nextCursor
      }))
    )
    : none
  const prompts = capabilities.prompts
    ? await allPages((cursor) => client.listPrompts(cursor ? { cursor } : {}, options).then((r) => ({ items: r.prompts, nextCursor: r.nextCursor })))
    : none
  return {
    protocolVersion: protocolVersion ?? "unknown",
    serverIdentity,
    capabilities,
    tools: tools.items,
    resources: resources.items,
    resourceTemplates: resourceTemplates.items,
    prompts: prompts.items,
    transport: kind,
    pages: { tools: tools.pages, resources: resources.pages, resourceTemplates: resourceTemplates.pages, prompts: prompts.pages }
  }
}

/** Where and how a request reaches an MCP server (see {@link fetchCatalog}). */
interface ServerTarget {
  readonly serverUrl: string
  readonly transport: McpTransport
  readonly accessToken: Option.Option<Redacted.Redacted<string>>
  readonly fetch: typeof globalThis.fetch
  readonly timeoutMs: number
}

/**
 * Connects to the server of `target` (the transport it names, or for `AUTO` Streamable
 * HTTP then SSE) and runs `use` on the connected client; fails with
 * {@link CatalogFetchFailure} (a 401 as `auth-required`), never with a defect.
 */
const overConnection = <A>(
  target: ServerTarget,
  use: (client: Client, protocolVersion: string | undefined, kind: "STREAMABLE_HTTP" | "SSE") => Promise<A>
): Effect.Effect<A, CatalogFetchFailure> => {
  const watch: Watch = { unauthorized: false, challenge: null, failed: undefined }
  const record = (error: unknown) => {
    if (outboundFailureOf(error) !== undefined || isNetworkError(error)) watch.failed = error
  }
  /** `body` as it arrives, a failure reading it (the guard's size cap, a reset) recorded first. */
  const watchedBody = (body: ReadableStream<Uint8Array>) => {
    const reader = body.getReader()
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read()
          if (done) controller.close()
          else controller.enqueue(value)
        } catch (error) {
          record(error)
          controller.error(error)
        }
      },
      cancel: (reason) => reader.cancel(reason)
    })
  }
  const watchedFetch = (async (url: string | URL | Request, init?: RequestInit) => {
    let response: Response
    try {
      const answered = await target.fetch(url, init)
      response = answered.body === null
        ? answered
        : new Response(watchedBody(answered.body), { status: answered.status, statusText: answered.statusText, headers: answered.headers })
      if (answered.body !== null) Object.defineProperty(response, "url", { value: answered.url })
    } catch (error) {
      record(error)
      throw error
    }
    if (response.status === 401) {
      watch.unauthorized = true
      watch.challenge = response.headers.get("www-authenticate")
    }
    return response
  }) as typeof globalThis.fetch
  const requestInit: RequestInit = Option.match(target.accessToken, {
    onNone: () => ({}),
    onSome: (token) => ({ headers: { Authorization: `Bearer ${Redacted.value(token)}` } })
  })
  const url = new URL(target.serverUrl)
  const over = (transport: Transport, kind: "STREAMABLE_HTTP" | "SSE") =>
    connected(transport, target.timeoutMs, (client, version) => use(client, version(), kind))
  const streamable = () => over(new StreamableHTTPClientTransport(url, { fetch: watchedFetch, requestInit }), "STREAMABLE_HTTP")
  const sse = () => over(new SSEClientTransport(url, { fetch: watchedFetch, requestInit }), "SSE")

  const run = async (): Promise<A> => {
    if (target.transport === "STREAMABLE_HTTP") return streamable()
    if (target.transport === "SSE") return sse()
    try {
      return await streamable()
    } catch (error) {
      const status = httpStatusOf(error)
      // only an HTTP 4xx (not 401) to the initialize POST means "an older server": try SSE
      if (watch.unauthorized || status === undefined || status < 400 || status > 499) throw error
      return sse()
    }
  }
  return Effect.tryPromise({
    try: run,
    catch: (error) =>
      new CatalogFetchFailure({
        code: failureCode(error, watch),
        resourceMetadataUrl: watch.unauthorized ? resourceMetadataOf(watch.challenge) : Option.none()
      })
  }).pipe(
    // each request is bounded by timeoutMs; the whole exchange too (a stalled SSE stream, a server paging slowly)
    Effect.timeoutFail({
      duration: target.timeoutMs * WholeFetchRequests,
      onTimeout: () => new CatalogFetchFailure({ code: "timeout", resourceMetadataUrl: Option.none() })
    })
  )
}

/**
 * Fetches the catalog of the MCP server at `serverUrl` (see the module's description).
 * `fetch` is the guarded outbound fetch; `accessToken`, when some, is sent as
 * `Authorization: Bearer` (OAuth 2.1 §5.1.1, MCP authorization). Fails with
 * {@link CatalogFetchFailure}; never with a defect for anything the server does.
 */
export const fetchCatalog = (input: ServerTarget): Effect.Effect<ObservedCatalog, CatalogFetchFailure> =>
  overConnection(input, (client, protocolVersion, kind) => observe(client, protocolVersion, kind, input.timeoutMs))

/** What an MCP server answered to `tools/call` (MCP 2025-06-18 `CallToolResult`). */
export interface ToolCallAnswer {
  /** The result's content blocks (text, image, resource, …), as the server sent them. */
  readonly content: ReadonlyArray<unknown>
  /** The result's `structuredContent`, when the server sent one. */
  readonly structuredContent: unknown
  /** True when the tool reported an error (a tool-level failure, not a protocol one). */
  readonly isError: boolean
}

/**
 * Calls tool `name` with `arguments` on the MCP server of `target` (`tools/call`, MCP
 * 2025-06-18), over the same transports, authorization and bounds as
 * {@link fetchCatalog}: one connection (`initialize`) and one call, whose wait is bounded
 * by `timeoutMs`. Fails with {@link CatalogFetchFailure} (`auth-required`, `timeout`,
 * `network-error`, `http-<status>`, `protocol-error`, …); a tool that reports an error
 * answers `isError: true`.
 */
export const callTool = (input: ServerTarget & {
  readonly name: string
  readonly arguments: Record<string, unknown>
}): Effect.Effect<ToolCallAnswer, CatalogFetchFailure> =>
  overConnection(input, async (client) => {
    const result = await client.callTool({ name: input.name, arguments: input.arguments }, undefined, {
      timeout: input.timeoutMs,
      maxTotalTimeout: input.timeoutMs
    })
    return {
      content: Array.isArray(result.content) ? result.content : [],
      structuredContent: result.structuredContent ?? null,
      isError: result.isError === true
    }
  })

/**
 * Checks that the MCP server of `target` answers (endpoint health): one
 * connection (`initialize`, over the transport `target` names, `AUTO` falling back as
 * {@link fetchCatalog} does) and one `ping`, each request bounded by `timeoutMs`; the session is
 * closed after. Succeeds with nothing; fails with {@link CatalogFetchFailure}, whose codes
 * are {@link fetchCatalog}'s (`auth-required` when the server answered 401).
 */
export const pingServer = (input: ServerTarget): Effect.Effect<void, CatalogFetchFailure> =>
  overConnection(input, async (client) => {
    await client.ping({ timeout: input.timeoutMs, maxTotalTimeout: input.timeoutMs })
  })
