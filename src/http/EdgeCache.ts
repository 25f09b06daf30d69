/**
 * The HTTP edge of `public-catalog` operations (spec §4.1 `x-cache-policy`): an
 * anonymous `200` of such an operation, exactly as the full pipeline produced it,
 * is kept for {@link EdgeTtlMillis} and served again straight from the Node request
 * listener — no routing, decoding, middleware or handler — with its per-request
 * parts made fresh:
 *
 * - `meta.requestId` and `X-Request-Id` (a new id from `Ids`), `meta.generatedAt` (`Clock`);
 * - the anonymous request budget is charged as the pipeline charges it, with the
 *   same `RateLimit-Policy` / `RateLimit` headers (the operations served here never refuse: see below);
 * - `If-None-Match` matching the entity's `ETag` answers `304` with the same headers and no body;
 * - the access log gets its one line (`accessWriter`).
 *
 * Everything else is byte-identical to what the pipeline sent (body, `Cache-Control`,
 * `ETag`, CORS headers). An entry is filled (and refreshed) by {@link EdgeCache}'s
 * `capture` middleware from a pipeline response, and served only to requests the
 * pipeline would answer the same way: `GET` of the same URL (path and query), no
 * credential (`Authorization`, `X-API-Key`), no body, and the same presence of `Origin`
 * (CORS headers differ). Only operations whose auth mode is `public` (cookies are
 * ignored there) and that do not list 429 are cached. Everything else, and every
 * request after an entry expires, goes through the pipeline.
 *
 * Freshness: an entry lives {@link EdgeTtlMillis} from its fill; `invalidate` drops
 * all entries (the protocol catalog calls it when it is invalidated), so a change
 * written from outside the process shows within the data cache's TTL plus this one.
 */
import * as Cookies from "@effect/platform/Cookies"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Effect, Option, Runtime } from "effect"
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http"
import { AppConfig } from "../../layers/AppConfig.js"
import { now } from "../../layers/Clock.js"
import { Ids } from "../../layers/Ids.js"
import { RateBudget } from "../../layers/RateBudget.js"
import { BudgetRefusing } from "../api/budget.js"
import { Operations } from "../api/policies.js"
import { accessWriter } from "./AccessLog.js"
import { clientAddressOf } from "./ClientAddress.js"
import { noneMatch } from "./Conditional.js"
import { budgetTarget, rateLimitHeaders } from "./RateBudgetMiddleware.js"

/** How long an edge entry is served after the pipeline produced it, in milliseconds. */
export const EdgeTtlMillis = 5_000

/** Response headers that are made fresh for every request, never replayed. */
const perRequestHeaders = new Set(["x-request-id", "ratelimit", "ratelimit-policy", "content-length", "date"])

interface Entry {
  /** Clock time (ms) until which the entry is served. */
  readonly until: number
  readonly etag: string
  /** The operation's `x-rate-cost`. */
  readonly cost: number
  /** The replayed headers of a 200 (without {@link perRequestHeaders}) and of a 304 (without `content-type` too). */
  readonly headers: Readonly<Record<string, string>>
  readonly notModifiedHeaders: Readonly<Record<string, string>>
  readonly body: BodyTemplate
}

/**
 * A captured body with the byte offsets of `meta.requestId` and `meta.generatedAt`:
 * a fresh body is a copy with the two ASCII values written over the old ones (a
 * value of another length falls back to concatenation).
 */
interface BodyTemplate {
  readonly bytes: Buffer
  readonly idAt: number
  readonly idLength: number
  readonly timeAt: number
  readonly timeLength: number
}

const render = (t: BodyTemplate, requestId: string, time: string): Buffer => {
  if (requestId.length === t.idLength && time.length === t.timeLength) {
    const out = Buffer.allocUnsafe(t.bytes.length)
    t.bytes.copy(out)
    out.write(requestId, t.idAt, "latin1")
    out.write(time, t.timeAt, "latin1")
    return out
  }
  return Buffer.concat([
    t.bytes.subarray(0, t.idAt),
    Buffer.from(requestId),
    t.bytes.subarray(t.idAt + t.idLength, t.timeAt),
    Buffer.from(time),
    t.bytes.subarray(t.timeAt + t.timeLength)
  ])
}

/** A request the edge may answer: a bodyless, credential-free GET. */
const servable = (method: string | undefined, headers: IncomingHttpHeaders | Readonly<Record<string, string | undefined>>) =>
  method === "GET" &&
  headers["authorization"] === undefined &&
  headers["x-api-key"] === undefined &&
  headers["transfer-encoding"] === undefined &&
  (headers["content-length"] === undefined || headers["content-length"] === "0")

const keyOf = (url: string, origin: unknown) => (origin === undefined ? url : `${url}\n+origin`)

/**
 * Splits a JSON envelope around the LAST `"requestId":"<id>"` and `"generatedAt":"<time>"`
 * (those of `meta`, which is written after `data`), or undefined when it has no such meta.
 */
const template = (body: Uint8Array, requestId: string): BodyTemplate | undefined => {
  const bytes = Buffer.from(body)
  const idField = Buffer.from(`"requestId":"${requestId}"`)
  const timeField = Buffer.from(`"generatedAt":"`)
  const at = bytes.lastIndexOf(idField)
  const t = bytes.lastIndexOf(timeField)
  if (at < 0 || t < at) return undefined
  const timeAt = t + timeField.length
  const idAt = at + `"requestId":"`.length
  return { bytes, idAt, idLength: Buffer.byteLength(requestId), timeAt, timeLength: bytes.indexOf("\"", timeAt) - timeAt }
}

/** The response cache at the HTTP edge. Requires `Operations`, `RateBudget`, `AppConfig`, `Ids`. */
export class EdgeCache extends Effect.Service<EdgeCache>()("agent-directory/EdgeCache", {
  effect: Effect.gen(function*() {
    const operations = yield* Operations
    const budgets = yield* RateBudget
    const config = yield* AppConfig
    const ids = yield* Ids
    const logAccess = yield* accessWriter
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    const entries = new Map<string, Entry>()
    let hits = 0

    const clock = yield* Effect.clock
    const rateLimit = Option.match({ onNone: () => ({}), onSome: rateLimitHeaders })

    /** Answers one request from a fresh `entry`: charge the budget, write the response, log it. */
    const answer = (entry: Entry, at: number, started: number, req: IncomingMessage, res: ServerResponse) =>
      Effect.flatMap(ids.next, (requestId) => {
        const address = () =>
          clientAddressOf(req.socket.remoteAddress, req.headers["x-forwarded-for"] as string | undefined, config.trustedProxyHops)
        return Effect.flatMap(budgets.charge({ ...budgetTarget(config, { _tag: "Anonymous" }, address), cost: entry.cost }), (charged) => {
          hits++
          let status = 200
          if (noneMatch(req.headers["if-none-match"], entry.etag)) {
            status = 304
            res.writeHead(304, { ...entry.notModifiedHeaders, ...rateLimit(charged), "x-request-id": requestId })
            res.end()
          } else {
            const body = render(entry.body, requestId, new Date(at).toISOString())
            res.writeHead(200, {
              ...entry.headers,
              ...rateLimit(charged),
              "x-request-id": requestId,
              "content-length": String(body.length)
            })
            res.end(body)
          }
          return logAccess({ method: "GET", url: req.url ?? "/", status, started, requestId })
        })
      })

    return {
      /**
       * Middleware that fills the cache from the pipeline's responses (see the module
       * docs for which). Place it outermost, so that it sees the final headers.
       */
      capture: HttpMiddleware.make((app) =>
        Effect.flatMap(app, (response) =>
          Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
            const body = response.body
            const etag = response.headers["etag"]
            const requestId = response.headers["x-request-id"]
            if (
              response.status !== 200 || body._tag !== "Uint8Array" || etag === undefined || requestId === undefined ||
              !Cookies.isEmpty(response.cookies) || !servable(request.method, request.headers)
            ) return Effect.succeed(response)
            const op = operations.find("GET", request.url.split("?")[0] ?? "")
            if (
              Option.isNone(op) || op.value.policy.cache !== "public-catalog" || op.value.policy.auth !== "public" ||
              op.value.endpoint.middlewares.has(BudgetRefusing as never)
            ) return Effect.succeed(response)
            const parts = template(body.body, requestId)
            if (parts === undefined) return Effect.succeed(response)
            return Effect.map(now, (at) => {
              const headers: Record<string, string> = {}
              for (const [name, value] of Object.entries(response.headers)) {
                if (!perRequestHeaders.has(name)) headers[name] = value
              }
              const { "content-type": _, ...notModifiedHeaders } = headers
              entries.set(keyOf(request.url, request.headers["origin"]), {
                until: at.getTime() + EdgeTtlMillis,
                etag,
                cost: op.value.policy.cost,
                headers,
                notModifiedHeaders,
                body: parts
              })
              return response
            })
          })
        )
      ),
      /**
       * A Node request listener: answers what the cache holds, hands everything else
       * to `pipeline` (the server's own listener).
       */
      listener: (pipeline: (req: IncomingMessage, res: ServerResponse) => void) =>
      (req: IncomingMessage, res: ServerResponse): void => {
        const key = servable(req.method, req.headers) ? keyOf(req.url ?? "", req.headers["origin"]) : undefined
        const entry = key === undefined ? undefined : entries.get(key)
        if (entry === undefined) return pipeline(req, res)
        const started = performance.now()
        const at = clock.unsafeCurrentTimeMillis()
        if (at >= entry.until) {
          if (entries.get(key!) === entry) entries.delete(key!)
          return pipeline(req, res)
        }
        runFork(answer(entry, at, started, req, res).pipe(
          Effect.catchAllDefect((defect) =>
            Effect.sync(() => {
              if (!res.headersSent) pipeline(req, res)
              else res.destroy(defect instanceof Error ? defect : undefined)
            })
          )
        ))
      },
      /** Drops every entry: the next request of each goes through the pipeline. */
      invalidate: Effect.sync(() => entries.clear()),
      /** How many requests the edge has answered (observability and tests). */
      hits: Effect.sync(() => hits)
    }
  })
}) {}
