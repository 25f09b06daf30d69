/**
 * The search's embeddings indexer on the durable engine (docs/search.md "Vector similarity"): a cluster
 * `Singleton` (exactly one runner of the cluster runs it), present only when an embeddings model is
 * configured (`SEARCH_EMBEDDINGS_PROFILE`). At start it enables the vector tables
 * (`agent_search_vectors_enable()`, migration 0053); without pgvector it logs once that search is text only
 * and does nothing more. Otherwise it queues the agents without an embedding of the model, then drains the
 * queue that the search documents' triggers fill: batches of {@link IndexBatch} agents, their search text
 * built in SQL, the texts whose MD5 changed embedded in one request to the model (outside any transaction),
 * then stored and dequeued in one transaction. A request's own transaction never waits for the model.
 * When the model fails, the batch stays queued and the indexer waits (doubling from 1 s up to
 * {@link MaxBackoffMs}).
 */
import { Singleton } from "@effect/cluster"
import { Effect, Layer } from "effect"
import { AppConfig, OutboundConfigLive } from "../../../layers/AppConfig.js"
import { now } from "../../../layers/Clock.js"
import { retryTransient } from "../../../layers/Engine.js"
import { Outbound } from "../../../layers/Outbound.js"
import { type SearchEmbeddingsSettings, SearchSettings } from "../Config.js"
import { embeddingsProfile, makeEmbedder, usableVector, vectorLiteral } from "./Embedder.js"
import { type ComputedEmbedding, enableVectors, ensureIndex, nextQueued, queueMissing, storeEmbeddings } from "./Repo.js"

/** Agents embedded per request to the model. */
export const IndexBatch = 64
/** How often an empty queue is read again, ms. */
export const IndexPollMs = 1000
/** Longest wait after the model failed, ms. */
export const MaxBackoffMs = 60_000
/** A batch's request to the model not answered in this long has failed. */
export const IndexRequestTimeoutMs = 60_000

/** The indexer's loop for the model of `settings` (see the module's description). */
const indexerLoop = (settings: SearchEmbeddingsSettings) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const outbound = yield* Outbound
    const profile = yield* embeddingsProfile(settings, config.modelProfiles)
    if (!(yield* retryTransient(enableVectors))) {
      yield* Effect.logWarning(
        "search: an embeddings model is configured but the database has no vector extension (pgvector); search is text only"
      )
      return yield* Effect.never
    }
    const embedder = yield* makeEmbedder(profile, settings.model, outbound, { maxBatchSize: IndexBatch })
    yield* retryTransient(queueMissing(settings.model))
    const indexed = new Set<number>()
    let backoffMs = 1000
    while (true) {
      const batch = yield* retryTransient(nextQueued(settings.model, IndexBatch))
      if (batch.length === 0) {
        yield* Effect.sleep(IndexPollMs)
        continue
      }
      const changed = batch.filter((row) => row.hash !== row.storedHash)
      const vectors = changed.length === 0 ? [] : yield* embedder.embedMany(changed.map((row) => row.text)).pipe(
        Effect.timeoutFail({ duration: IndexRequestTimeoutMs, onTimeout: () => "timed out" }),
        Effect.catchAllCause((cause) =>
          Effect.as(
            Effect.logWarning("search: the embeddings model failed; the agents stay queued").pipe(
              Effect.annotateLogs({ agents: changed.length, retryInMs: backoffMs, cause: String(cause).slice(0, 300) })
            ),
            undefined
          )
        )
      )
      if (vectors === undefined) {
        yield* Effect.sleep(backoffMs)
        backoffMs = Math.min(backoffMs * 2, MaxBackoffMs)
        continue
      }
      backoffMs = 1000
      const computed: Array<ComputedEmbedding> = []
      changed.forEach((row, i) => {
        const v = vectors[i]
        // an unusable answer leaves the agent's previous embedding; it is dequeued like the others
        if (v !== undefined && usableVector(v)) {
          computed.push({ agentId: row.agentId, hash: row.hash, dimensions: v.length, literal: vectorLiteral(v) })
        }
      })
      if (computed.length < changed.length) {
        yield* Effect.logWarning("search: the embeddings model answered unusable vectors").pipe(
          Effect.annotateLogs({ agents: changed.length - computed.length })
        )
      }
      yield* retryTransient(storeEmbeddings(settings.model, computed, batch, yield* now))
      for (const dimensions of new Set(computed.map((c) => c.dimensions))) {
        if (indexed.has(dimensions)) continue
        indexed.add(dimensions)
        yield* retryTransient(ensureIndex(dimensions))
      }
    }
  }).pipe(Effect.catchAllCause((cause) => Effect.logError("search: the embeddings indexer stopped", cause)))

/**
 * The indexer on the engine when `SEARCH_EMBEDDINGS_PROFILE` is set, nothing otherwise. Requires the
 * engine's `Sharding`, `SqlClient`, `SearchSettings` and `AppConfig` (the guarded outbound client is
 * built from it).
 */
export const EmbeddingIndexerLive = Layer.unwrapEffect(Effect.map(SearchSettings, ({ searchEmbeddings }) =>
  searchEmbeddings === undefined
    ? Layer.empty
    : Singleton.make("AgentSearchEmbeddings", Effect.scoped(indexerLoop(searchEmbeddings))).pipe(
      Layer.provide(OutboundConfigLive)
    )
))
