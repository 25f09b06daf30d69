/**
 * The text query of the directory search (Agents_ListAgents' and Agents_ListAgentFacets' `q`;
 * docs/search.md, docs/methodology.md "Search relevance"): its words and `tsquery` (the service's shared
 * text query, src/db/textSearch.ts, re-exported here) and the weights of the relevance blend. Pure: no I/O.
 */

export { MaxQueryWords, queryWords, type ResolvedWord, type TextSearch, tsqueryText } from "../db/textSearch.js"

/**
 * The weights of the relevance blend (docs/methodology.md "Search relevance"): `text`, the full-text rank
 * (`ts_rank` with field weights A 1.0, B 0.4, C 0.2, D 0.1, normalised to rank/(rank+1)); `similarity`,
 * the trigram word similarity of the query to the agent's names (name, tagline, skill and tool names);
 * `reputation`, the rank score of the reputation projection (`agent_reputation.rank_score_ppm` / 10^6,
 * 0 when not projected). They sum to 1, so relevance is in [0, 1].
 */
export const RelevanceWeights = { text: 0.6, similarity: 0.25, reputation: 0.15 } as const
