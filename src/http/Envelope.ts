/**
 * Builds success envelopes (spec §2.2): `{ data, meta }` and cursor pages
 * `{ data, nextCursor, meta }`. `meta.generatedAt` comes from `Clock`,
 * `meta.requestId` from the request.
 */
import { Context, Effect, Layer } from "effect"
import type { Meta } from "../../schema/envelope.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { now } from "../../layers/Clock.js"
import { currentRequest, type RequestInfo } from "../../layers/RequestContext.js"

/** The schema version reported in `meta.schemaVersion`. */
export const SchemaVersion = "1.0.0"

/** Envelope construction. */
export class Envelope extends Context.Tag("agent-directory/Envelope")<Envelope, {
  /** The `meta` of the current response. */
  readonly meta: Effect.Effect<Meta>
  /**
   * `{ data, meta }`. `freshness` (a projection's `{projectedAt, sourceWatermark}`, spec §2.1) goes
   * to `meta.freshness`; without it both are null (the data is read live).
   */
  readonly data: <A>(data: A, freshness?: Meta["freshness"]) => Effect.Effect<{ readonly data: A; readonly meta: Meta }>
  /** `{ data, nextCursor, meta }`. */
  readonly page: <A>(
    data: ReadonlyArray<A>,
    nextCursor: string | null
  ) => Effect.Effect<{ readonly data: ReadonlyArray<A>; readonly nextCursor: string | null; readonly meta: Meta }>
}>() {}

/** Envelope from the configured build version. */
export const EnvelopeLive = Layer.effect(
  Envelope,
  Effect.map(AppConfig, ({ buildVersion }) => {
    const live: Meta["freshness"] = { projectedAt: null, sourceWatermark: null }
    const metaOf = (request: RequestInfo, generatedAt: Date, freshness: Meta["freshness"]): Meta => ({
      requestId: request.requestId,
      schemaVersion: SchemaVersion,
      buildVersion,
      generatedAt,
      freshness
    })
    // every response builds one: the request info and the clock read in one step each
    const withMeta = <B>(f: (meta: Meta) => B, freshness: Meta["freshness"] = live): Effect.Effect<B> =>
      Effect.flatMap(currentRequest, (request) => Effect.map(now, (generatedAt) => f(metaOf(request, generatedAt, freshness))))
    return {
      meta: withMeta((meta) => meta),
      data: (data, freshness) => withMeta((meta) => ({ data, meta }), freshness),
      page: (data, nextCursor) => withMeta((meta) => ({ data, nextCursor, meta }))
    }
  })
)
