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
 * - the access log gets its one line (`logAccess`).
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
import { Cookies, HttpMiddleware, HttpServerRequest } from "@effect/platform"
import { Effect, Option, Runtime } from "effect"
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http"
import { AppConfig } from "../../layers/AppConfig.js"
import { now } from "../../layers/Clock.js"
import { Ids } from "../../layers/Ids.js"
import { RateBudget } from "../../layers/RateBudget.js"
import { BudgetRefusing } from "../api/budget.js"
import { Operations } from "../api/policies.js"
import { logAccess } from "./AccessLog.js"
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
  /** The replayed headers (without {@link perRequestHeaders}). */
  readonly headers: Readonly<Record<string, string>>
  /** The body around `meta.requestId` and `meta.generatedAt`: [before id, between, after time]. */
  readonly body: readonly [string, string, string]
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
const template = (body: string, requestId: string): Entry["body"] | undefined => {
  const idField = `"requestId":"${requestId}"`
  const at = body.lastIndexOf(idField)
  const timeField = `"generatedAt":"`
  const t = body.lastIndexOf(timeField)
  if (at < 0 || t < at) return undefined
  const timeStart = t + timeField.length
  const timeEnd = body.indexOf("\"", timeStart)
  const idStart = at + `"requestId":"`.length
  return [body.slice(0, idStart), body.slice(idStart + requestId.length, timeStart), body.slice(timeEnd)]
}

/** The response cache at the HTTP edge. Requires `Operations`, `RateBudget`, `AppConfig`, `Ids`. */
export class EdgeCache extends Effect.Service<EdgeCache>()("agent-directory/EdgeCache", {
  effect: Effect.gen(function*() {
    const operations = yield* Operations
    const budgets = yield* RateBudget
    const config = yield* AppConfig
    const ids = yield* Ids
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    const entries = new Map<string, Entry>()
    let hits = 0

    /** Answers one request from `entry`, or hands it to the pipeline when the entry has expired. */
    const answer = (entry: Entry, key: string, req: IncomingMessage, res: ServerResponse, pipeline: () => void) =>
      Effect.gen(function*() {
        const started = performance.now()
        const at = yield* now
        if (at.getTime() >= entry.until) {
          if (entries.get(key) === entry) entries.delete(key)
          return pipeline()
        }
        hits++
        const requestId = yield* ids.next
        const target = budgetTarget(config, { _tag: "Anonymous" }, () =>
          clientAddressOf(req.socket.remoteAddress, req.headers["x-forwarded-for"] as string | undefined, config.trustedProxyHops))
        const charged = yield* budgets.charge({ ...target, cost: entry.cost })
        const headers: Record<string, string> = {
          ...entry.headers,
          ...Option.match(charged, { onNone: () => ({}), onSome: rateLimitHeaders }),
          "x-request-id": requestId
        }
        let status = 200
        if (noneMatch(req.headers["if-none-match"], entry.etag)) {
          status = 304
          delete headers["content-type"]
          res.writeHead(304, headers)
          res.end()
        } else {
          const body = entry.body[0] + requestId + entry.body[1] + at.toISOString() + entry.body[2]
          headers["content-length"] = String(Buffer.byteLength(body))
          res.writeHead(200, headers)
          res.end(body)
        }
        yield* logAccess({ method: "GET", url: req.url ?? "/", status, started, requestId })
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
            const parts = template(new TextDecoder().decode(body.body), requestId)
            if (parts === undefined) return Effect.succeed(response)
            return Effect.map(now, (at) => {
              const headers: Record<string, string> = {}
              for (const [name, value] of Object.entries(response.headers)) {
                if (!perRequestHeaders.has(name)) headers[name] = value
              }
              entries.set(keyOf(request.url, request.headers["origin"]), {
                until: at.getTime() + EdgeTtlMillis,
                etag,
                cost: op.value.policy.cost,
                headers,
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
        const entry = servable(req.method, req.headers) ? entries.get(keyOf(req.url ?? "", req.headers["origin"])) : undefined
        if (entry === undefined) return pipeline(req, res)
        runFork(answer(entry, keyOf(req.url ?? "", req.headers["origin"]), req, res, () => pipeline(req, res)).pipe(
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
