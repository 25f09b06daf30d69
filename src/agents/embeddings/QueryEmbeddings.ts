/**
 * The embedding of a search query (docs/search.md "Vector similarity"): computed at search time by the
 * configured embeddings model (./Embedder.ts), kept per query text for {@link QueryCacheTtl}, and used
 * only where the database holds agents' embeddings (pgvector, migration 0053). Without a configured model,
 * without pgvector (the embedded database), or when the model does not answer within
 * {@link QueryEmbeddingTimeoutMs}, there is no query vector and the search is text only; a search never
 * fails for it.
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Ref } from "effect"
import { AppConfig, OutboundConfigLive } from "../../../layers/AppConfig.js"
import { Outbound } from "../../../layers/Outbound.js"
import { SearchSettings } from "../Config.js"
import type { QueryVector } from "../SearchQuery.js"
import { embeddingsProfile, makeEmbedder, usableVector, vectorLiteral } from "./Embedder.js"

/** How long a query text's embedding is reused. */
export const QueryCacheTtl = "60 seconds"
/** Most query texts whose embeddings are kept. */
export const QueryCacheCapacity = 1000
/** A query's embedding not computed in this long is given up: that search is text only. */
export const QueryEmbeddingTimeoutMs = 2000
/** How long the answer "the database holds embeddings" is reused. */
const AvailabilityTtl = "60 seconds"

/** The query side of the search's embeddings. */
export class QueryEmbeddings extends Context.Tag("agent-directory/QueryEmbeddings")<QueryEmbeddings, {
  /**
   * The embedding of the query text `text` (the words of `q` joined by spaces), or undefined: no model
   * configured, no embeddings in the database, or the model failed or was slow (logged as a warning,
   * without the query).
   */
  readonly queryVector: (text: string) => Effect.Effect<QueryVector | undefined>
}>() {}

/** No embeddings: every search is text only. */
export const QueryEmbeddingsNone = Layer.succeed(QueryEmbeddings, { queryVector: () => Effect.succeed(undefined) })

/**
 * The configured query embeddings (`SEARCH_EMBEDDINGS_PROFILE`, `SEARCH_EMBEDDINGS_MODEL`), over the
 * guarded outbound client of `AppConfig`. Requires `SearchSettings`, `AppConfig`, `SqlClient`; a
 * profile that is not an `openai` one is a start-up defect.
 */
export const QueryEmbeddingsLive: Layer.Layer<QueryEmbeddings, never, SearchSettings | AppConfig | SqlClient.SqlClient> = Layer
  .unwrapEffect(Effect.gen(function*() {
    const { searchEmbeddings } = yield* SearchSettings
    if (searchEmbeddings === undefined) return QueryEmbeddingsNone
    return Layer.scoped(
      QueryEmbeddings,
      Effect.gen(function*() {
        const config = yield* AppConfig
        const sql = yield* SqlClient.SqlClient
        const outbound = yield* Outbound
        const profile = yield* embeddingsProfile(searchEmbeddings, config.modelProfiles)
        const model = yield* makeEmbedder(profile, searchEmbeddings.model, outbound, {
          maxBatchSize: 1,
          cache: { capacity: QueryCacheCapacity, timeToLive: QueryCacheTtl }
        })
        const warnedUnavailable = yield* Ref.make(false)
        const available = yield* Effect.cachedWithTTL(
          sql<{ ok: boolean }>`SELECT to_regclass('agent_search_embeddings') IS NOT NULL AS ok`.pipe(
            Effect.map(([row]) => row?.ok === true),
            Effect.orElseSucceed(() => false)
          ),
          AvailabilityTtl
        )
        const queryVector = (text: string): Effect.Effect<QueryVector | undefined> =>
          Effect.gen(function*() {
            if (!(yield* available)) {
              if (!(yield* Ref.getAndSet(warnedUnavailable, true))) {
                yield* Effect.logWarning(
                  "search: an embeddings model is configured but the database has no vector extension (pgvector); search is text only"
                )
              }
              return undefined
            }
            const vector = yield* model.embed(text).pipe(Effect.timeoutFail({
              duration: QueryEmbeddingTimeoutMs,
              onTimeout: () => "timed out"
            }))
            if (!usableVector(vector)) {
              yield* Effect.logWarning("search: the embeddings model answered an unusable query vector; this search is text only")
              return undefined
            }
            return { model: searchEmbeddings.model, dimensions: vector.length, literal: vectorLiteral(vector) }
          }).pipe(Effect.catchAllCause((cause) =>
            Effect.as(
              Effect.logWarning("search: the query's embedding failed; this search is text only").pipe(
                Effect.annotateLogs({ cause: String(cause).slice(0, 300) })
              ),
              undefined
            )
          ))
        return { queryVector }
      })
    ).pipe(Layer.provide(OutboundConfigLive))
  }))
