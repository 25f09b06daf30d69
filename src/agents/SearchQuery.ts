/**
 * The text query of the directory search (Agents_ListAgents' and Agents_ListAgentFacets' `q`;
 * docs/search.md, docs/methodology.md "Search relevance"): its words, and the PostgreSQL `tsquery`
 * they become once the lexicon has resolved them (src/agents/Repo.ts). Pure: no I/O.
 */

/** At most this many words of a query are searched (a 200-character query rarely has more). */
export const MaxQueryWords = 32

/**
 * The words of a text query: accents removed (Unicode NFKD without combining marks), lower case, runs of
 * letters and digits (every other character separates words); at most {@link MaxQueryWords}. `%`, `_` or
 * punctuation alone give no word (and the query matches nothing).
 */
export const queryWords = (q: string): ReadonlyArray<string> =>
  (q.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MaxQueryWords)

/**
 * One query word as the database resolved it: `own`, its lexeme under the `agent_search` text search
 * configuration (null for a stop word, which is dropped); `known`, whether some agent's document has that
 * lexeme; `alternatives`, the nearest lexemes of the lexicon by trigram similarity (at least 0.3, at most
 * three), used only when the word is not known (a typo: "wether" → "weather").
 */
export interface ResolvedWord {
  readonly own: string | null
  readonly known: boolean
  readonly alternatives: ReadonlyArray<string>
}

/** A lexeme as a quoted `tsquery` operand (quotes doubled, backslashes escaped). */
const operand = (lexeme: string): string => `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`

/**
 * The `tsquery` text of resolved words: every word must match (`&`); a word matches its own lexeme, as a
 * prefix when it has 3 characters or more (`'rel':*` finds "relay"), or, when it is not known, one of
 * its alternatives. Null when no word has a lexeme: such a query matches no agent.
 */
export const tsqueryText = (words: ReadonlyArray<ResolvedWord>): string | null => {
  const terms = words.flatMap((w) => {
    if (w.own === null) return []
    const own = operand(w.own) + (w.own.length >= 3 ? ":*" : "")
    const alternatives = w.known ? [] : w.alternatives.filter((a) => a !== w.own).map(operand)
    return [`(${[own, ...alternatives].join(" | ")})`]
  })
  return terms.length === 0 ? null : terms.join(" & ")
}

/**
 * The weights of the relevance blend (docs/methodology.md "Search relevance"): `text`, the full-text rank
 * (`ts_rank` with field weights A 1.0, B 0.4, C 0.2, D 0.1, normalised to rank/(rank+1)); `similarity`,
 * the trigram word similarity of the query to the agent's names (name, tagline, skill and tool names);
 * `reputation`, the rank score of the reputation projection (`agent_reputation.rank_score_ppm` / 10^6,
 * 0 when not projected). They sum to 1, so relevance is in [0, 1].
 */
export const RelevanceWeights = { text: 0.6, similarity: 0.25, reputation: 0.15 } as const

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
export interface TextSearch {
  readonly tsquery: string | null
  readonly words: string
  readonly vector?: QueryVector | undefined
}
