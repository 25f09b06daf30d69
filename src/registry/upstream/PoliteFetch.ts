/**
 * Bounded and polite fetching of upstream documents through the outbound guard (layers/Outbound.ts):
 * - at most {@link PerHostConcurrency} requests at a time per host (a semaphore per host);
 * - backoff on what may pass: 429, 502, 503, 504 and network errors are retried up to
 *   {@link Retries} times, exponentially from {@link BackoffBase} (or after `Retry-After` seconds when
 *   the server says, capped at 30 s);
 * - conditional requests: `If-None-Match` (the last `ETag`) and `If-Modified-Since` (the last
 *   `Last-Modified`); a 304 is {@link NotModified}.
 * Failures are {@link FetchFailure} with a stable code (`http-<status>`, `timeout`, `network-error`,
 * `target-refused`, `response-too-large`, `invalid-json`).
 */
import { Data, Duration, Effect, Schedule } from "effect"
import { Outbound, outboundFailureCodes, outboundFailureOf } from "../../../layers/Outbound.js"

/** Requests at a time per host. */
export const PerHostConcurrency = 2
/** Retries of a transient failure. */
export const Retries = 3
/** The first backoff delay. */
export const BackoffBase = Duration.millis(200)

/** A fetch that failed for good; `code` is stable, `status` the HTTP status if one came. */
export class FetchFailure extends Data.TaggedError("FetchFailure")<{ readonly code: string; readonly status: number | null }> {}
/** Transient: worth a retry (with its delay, when the server gave one). */
class Transient extends Data.TaggedError("Transient")<{ readonly code: string; readonly status: number | null; readonly retryAfter: Duration.Duration | null }> {}

/** A fetched JSON document with its validators. */
export interface Fetched {
  readonly _tag: "Fetched"
  readonly body: unknown
  readonly etag: string | null
  readonly lastModified: string | null
}
/** The document did not change since the validators sent. */
export interface NotModified {
  readonly _tag: "NotModified"
}

const retryable = new Set([429, 502, 503, 504])

/** A polite fetcher (one per sync: its per-host semaphores are shared by that sync's requests). Requires `Outbound`. */
export const makePoliteFetch = Effect.gen(function*() {
  const outbound = yield* Outbound
  const gates = new Map<string, Effect.Semaphore>()
  const gate = (host: string) => {
    let g = gates.get(host)
    if (g === undefined) {
      g = Effect.unsafeMakeSemaphore(PerHostConcurrency)
      gates.set(host, g)
    }
    return g
  }

  const once = (url: string, validators: { readonly etag?: string | null; readonly lastModified?: string | null }) =>
    Effect.gen(function*() {
      const headers: Record<string, string> = { accept: "application/json" }
      if (validators.etag) headers["if-none-match"] = validators.etag
      if (validators.lastModified) headers["if-modified-since"] = validators.lastModified
      const response = yield* Effect.tryPromise({
        try: (signal) => outbound.fetch(url, { headers, signal }),
        catch: (error) => {
          const code = outboundFailureCodes[outboundFailureOf(error)?.reason ?? "network"] ?? "network-error"
          return code === "network-error" || code === "timeout"
            ? new Transient({ code, status: null, retryAfter: null })
            : new FetchFailure({ code, status: null })
        }
      })
      if (response.status === 304) return { _tag: "NotModified" } as NotModified
      if (retryable.has(response.status)) {
        const seconds = Number(response.headers.get("retry-after"))
        return yield* new Transient({
          code: `http-${response.status}`,
          status: response.status,
          retryAfter: Number.isFinite(seconds) && seconds > 0 ? Duration.seconds(Math.min(seconds, 30)) : null
        })
      }
      if (response.status < 200 || response.status > 299) {
        yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve())
        return yield* new FetchFailure({ code: `http-${response.status}`, status: response.status })
      }
      const text = yield* Effect.tryPromise({
        try: () => response.text(),
        catch: (error) => new FetchFailure({ code: outboundFailureCodes[outboundFailureOf(error)?.reason ?? "network"] ?? "network-error", status: null })
      })
      const body = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => new FetchFailure({ code: "invalid-json", status: response.status }) })
      return { _tag: "Fetched", body, etag: response.headers.get("etag"), lastModified: response.headers.get("last-modified") } as Fetched
    })

  const backoff = Schedule.exponential(BackoffBase).pipe(Schedule.intersect(Schedule.recurs(Retries)))

  /** GETs `url` as JSON, politely. Fails with {@link FetchFailure}. */
  const getJson = (url: string, validators: { readonly etag?: string | null; readonly lastModified?: string | null } = {}) =>
    gate(new URL(url).host).withPermits(1)(
      once(url, validators).pipe(
        Effect.tapError((e) => e._tag === "Transient" && e.retryAfter !== null ? Effect.sleep(e.retryAfter) : Effect.void),
        Effect.retry({ schedule: backoff, while: (e) => e._tag === "Transient" }),
        Effect.catchTag("Transient", (e) => Effect.fail(new FetchFailure({ code: e.code, status: e.status })))
      )
    )

  return { getJson }
})

export type PoliteFetch = Effect.Effect.Success<typeof makePoliteFetch>
