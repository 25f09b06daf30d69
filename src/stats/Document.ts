/**
 * The stored and served form of a day's figures: the exact JSON text of
 * `data`, its freshness, and its strong entity tag.
 *
 * - The document is `JSON.stringify` of the figures built in one fixed key order (the
 *   order of the schema, src/stats/Schemas.ts), so a day projected twice gives the same bytes;
 *   a stored closed day is served as stored, byte for byte.
 * - The response body is `{"data":<document>,"meta":<meta>}`. `meta.requestId` and
 *   `meta.generatedAt` change per request, so the entity tag is not a hash of the whole body:
 *   it is the quoted base64url SHA-256 of `{"data":<document>,"freshness":<freshness>}`, i.e.
 *   of everything in the body that is not per-request. Two answers with one tag have the
 *   same `data` and `meta.freshness` bytes.
 */
import { Schema } from "effect"
import { Meta } from "../../schema/envelope.js"
import { strongEtag } from "../http/Conditional.js"

/** `meta.freshness` of a day: when it was projected (today: now) and the source watermark. */
export interface DayFreshness {
  readonly projectedAt: Date
  readonly sourceWatermark: string
}

/** One day's figures as stored or computed: the document, its freshness and its tag. */
export interface DayDocument {
  readonly day: string
  /** The exact JSON text of the day's `data`. */
  readonly document: string
  readonly freshness: DayFreshness
  /** Strong tag (see the module's description). */
  readonly etag: string
}

/** The strong entity tag of a `data` text and its freshness (see the module's description). */
export const documentEtag = (data: string, freshness: DayFreshness): string =>
  strongEtag(`{"data":${data},"freshness":${freshnessJson(freshness)}}`)

const freshnessJson = (f: DayFreshness) =>
  JSON.stringify({ projectedAt: f.projectedAt.toISOString(), sourceWatermark: f.sourceWatermark })

/** A day's document from its figures (an object built in the schema's key order). */
export const makeDayDocument = (day: string, figures: unknown, freshness: DayFreshness): DayDocument => {
  const document = JSON.stringify(figures)
  return { day, document, freshness, etag: documentEtag(document, freshness) }
}

const encodeMeta = Schema.encodeSync(Meta)

/** The response body `{"data":<data>,"meta":<meta>}` with `data` as given (a stored document or an array of them). */
export const envelopeText = (data: string, meta: Meta): string => `{"data":${data},"meta":${JSON.stringify(encodeMeta(meta))}}`
