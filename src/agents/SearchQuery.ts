/**
 * The text query of the directory search (Agents_ListAgents' and Agents_ListAgentFacets' `q`;
 * docs/search.md, docs/methodology.md "Search relevance"): its words and `tsquery` (the service's shared
 * text query, src/db/textSearch.ts, re-exported here) and the weights of the relevance blend. Pure: no I/O.
 */

import { Context } from "effect"
import type { TextSearch as BaseTextSearch } from "../db/textSearch.js"
export { MaxQueryWords, queryWords, type ResolvedWord, tsqueryText } from "../db/textSearch.js"

/**
 * The weights of the relevance blend (docs/methodology.md "Search relevance"): `text`, the full-text rank
 * (`ts_rank` with field weights A 1.0, B 0.4, C 0.2, D 0.1, normalised to rank/(rank+1)); `similarity`,
 * the trigram word similarity of the query to the agent's names (name, tagline, skill and tool names);
 * `reputation`, the rank score of the reputation projection (`agent_reputation.rank_score_ppm` / 10^6,
 * 0 when not projected). They sum to 1, so relevance is in [0, 1].
 */
export const RelevanceWeights = { text: 0.6, similarity: 0.25, reputation: 0.15 } as const

/**
 * The bound of the relevance order's first phase (docs/methodology.md "Search relevance", docs/search.md
 * "The query"): of the agents whose document matches the text query (and the filters), only the first this
 * many in the directory's rank order (`COALESCE(rank, 10^78)`, then id: the order of `sort=rank`) are scored
 * by the blend and paged; the rest are not listed in relevance order (`sort=rank` lists them all, the facets
 * count them all). Below the bound the order is the blend over every match, exactly. A `Context.Reference`
 * so a test can lower it; the service uses the default, 1,000.
 */
export class RelevanceCandidates extends Context.Reference<RelevanceCandidates>()("agent-directory/RelevanceCandidates", {
  defaultValue: (): number => 1_000
}) {}

/**
 * The weights of the relevance blend when the query has an embedding (docs/methodology.md "Search relevance",
 * docs/search.md "Vector similarity"): the three parts of {@link RelevanceWeights} and `vector`, the cosine
 * similarity of the query's embedding to the agent's (clamped to [0, 1], 0 for an agent without an embedding of
 * the model). They sum to 1.
 */
export const VectorRelevanceWeights = { text: 0.45, similarity: 0.15, vector: 0.25, reputation: 0.15 } as const

/** With a query embedding, the agents nearest to it (cosine distance, the HNSW index) are candidates too: at most this many. */
export const NearestNeighbours = 40

/** A nearest agent is a candidate only when its cosine similarity to the query is at least this. */
export const MinVectorSimilarity = 0.4

/**
 * The embedding of a query (src/agents/embeddings/QueryEmbeddings.ts): the model that computed it, its
 * dimensions and its pgvector text form (`[0.1,0.2,…]`).
 */
export interface QueryVector {
  readonly model: string
  readonly dimensions: number
  readonly literal: string
}

/**
 * A text query ready for SQL: the `tsquery` text (null: matches nothing) and the normalised words joined by
 * spaces; `vector`, the query's embedding when the search has one (absent: text only, the order of
 * {@link RelevanceWeights}).
 */
export interface TextSearch extends BaseTextSearch {
  readonly vector?: QueryVector | undefined
}
