/**
 * HTTP handlers of the Stats area: decode → service → the stored document in the envelope.
 * The body is written as text (`{"data":<document>,"meta":<meta>}`) so that a closed day's
 * stored bytes are what is served; the caching headers follow the day (see src/stats/Api.ts).
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { noneMatch } from "../http/Conditional.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { type DayFreshness, documentEtag, envelopeText } from "./Document.js"
import { type DayAnswer, Stats } from "./Stats.js"

/** `Cache-Control` of a closed day (and of a range of closed days): never changes. */
export const ImmutableCacheControl = "public, max-age=31536000, immutable"
/** `Cache-Control` of today's live figures (and of a range ending today). */
export const LiveCacheControl = "public, max-age=60"

/** The latest `projectedAt` of `answers` and the last one's watermark (a range's `meta.freshness`). */
const rangeFreshness = (answers: ReadonlyArray<DayAnswer>): DayFreshness => ({
  projectedAt: new Date(Math.max(...answers.map((a) => a.freshness.projectedAt.getTime()))),
  sourceWatermark: answers[answers.length - 1]!.freshness.sourceWatermark
})

export const StatsHttpLive = group(Api, "Stats", (handlers) =>
  Effect.gen(function*() {
    const stats = yield* Stats
    const envelope = yield* Envelope

    /**
     * The answer of `data` (JSON text) with `freshness`: immutable with a strong tag (304 when
     * `If-None-Match` names it) when `etag` is given, else live.
     */
    const respond = (ifNoneMatch: string | undefined, data: string, freshness: DayFreshness, etag: string | undefined) =>
      Effect.gen(function*() {
        if (etag !== undefined) {
          const headers = { etag, "cache-control": ImmutableCacheControl }
          // the client's copy is current: 304 with no body (RFC 9110 §15.4.5)
          if (noneMatch(ifNoneMatch, etag)) return HttpServerResponse.empty({ status: 304, headers })
          const { meta } = yield* envelope.data(null, freshness)
          return HttpServerResponse.text(envelopeText(data, meta), { contentType: "application/json", headers })
        }
        const { meta } = yield* envelope.data(null, freshness)
        return HttpServerResponse.text(envelopeText(data, meta), {
          contentType: "application/json",
          headers: { "cache-control": LiveCacheControl }
        })
      })

    const day = (ifNoneMatch: string | undefined, a: DayAnswer) =>
      respond(ifNoneMatch, a.document, a.freshness, a.closed ? a.etag : undefined)

    const days = (ifNoneMatch: string | undefined, answers: ReadonlyArray<DayAnswer>) => {
      const data = `[${answers.map((a) => a.document).join(",")}]`
      const freshness = rangeFreshness(answers)
      const closed = answers.every((a) => a.closed)
      return respond(ifNoneMatch, data, freshness, closed ? documentEtag(data, freshness) : undefined)
    }

    return handlers
      .handle("getDirectoryDailyStats", ({ path, request }) =>
        Effect.flatMap(stats.directoryDay(path.date), (a) => day(request.headers["if-none-match"], a)))
      .handle("listDirectoryDailyStats", ({ request, urlParams }) =>
        Effect.flatMap(stats.directoryRange(urlParams.from, urlParams.to), (a) => days(request.headers["if-none-match"], a)))
      .handle("getAgentDailyStats", ({ path, request }) =>
        Effect.flatMap(stats.agentDay(path.entityPublicId, path.date), (a) => day(request.headers["if-none-match"], a)))
      .handle("listAgentDailyStats", ({ path, request, urlParams }) =>
        Effect.flatMap(
          stats.agentRange(path.entityPublicId, urlParams.from, urlParams.to),
          (a) => days(request.headers["if-none-match"], a)
        ))
  }))
