/**
 * Domain rules of the Agents area's directory reads (spec §9): the filtered, sorted,
 * cursor-paged list, the canonical agent profile and the public activity feed (spec §2.21).
 * The REST handlers (Http.ts) and the MCP tools (src/mcpServer/Tools.ts) call these.
 */
import { Effect, Option } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { now } from "../../layers/Clock.js"
import { Cursor } from "../../layers/Cursor.js"
import type { AgentFacets, AgentListItem, AgentProfile, ListAgentFacetsQuery, ListAgentsQuery } from "../../schema/agents.js"
import type { ActivityItem, GetPublicAgentActivityQuery } from "../../schema/analytics.js"
import { AgentNotFound, InvalidCursor } from "../../schema/errors.js"
import { canonicalAgentUrl } from "../identity/CanonicalUrl.js"
import { ActivityPosition, ActivityRepo } from "./ActivityRepo.js"
import { type AgentFilters, AgentsRepo, ListPosition } from "./Repo.js"
import { QueryEmbeddings, QueryEmbeddingsLive } from "./embeddings/QueryEmbeddings.js"
import { queryWords, type TextSearch, tsqueryText } from "./SearchQuery.js"

/** A filter's values in one spelling: duplicates dropped, sorted (so the cursor binding ignores their order). */
const normalised = <A extends string>(values: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(values)].sort()

export class Agents extends Effect.Service<Agents>()("agent-directory/Agents", {
  effect: Effect.gen(function*() {
    const repo = yield* AgentsRepo
    const cursor = yield* Cursor
    const config = yield* AppConfig
    const activityRepo = yield* ActivityRepo
    const embeddings = yield* QueryEmbeddings

    /**
     * The text query resolved against the search lexicon (src/agents/SearchQuery.ts), with the query's
     * embedding when the search has one (src/agents/embeddings/QueryEmbeddings.ts; a query that matches
     * nothing by text needs none).
     */
    const textSearch = (q: string): Effect.Effect<TextSearch> =>
      Effect.gen(function*() {
        const words = queryWords(q)
        const tsquery = tsqueryText(yield* repo.resolveWords(words))
        const text = words.join(" ")
        if (tsquery === null) return { tsquery, words: text }
        const vector = yield* embeddings.queryVector(text)
        return vector === undefined ? { tsquery, words: text } : { tsquery, words: text, vector }
      })

    /** The repository's filters of a query: filter values normalised, `q` resolved. */
    const filtersOf = (query: ListAgentFacetsQuery): Effect.Effect<AgentFilters> =>
      Effect.map(
        query.q === undefined ? Effect.succeed(undefined) : textSearch(query.q),
        (search) => ({
          networks: normalised(query.networks),
          protocols: normalised(query.protocols),
          verificationStates: normalised(query.verificationStates),
          search
        })
      )

    /**
     * Agents_ListAgents: one page of listed agents matching the query, in its sort (absent:
     * `relevance` with `q`, else `rank`), with the cursor of the next page (null on the last). The
     * cursor is bound to the filters, `q`, the sort and `caller` (a principal scope such as
     * `api-key:<uuid>` or `anonymous`), not to `limit`. Fails with `InvalidCursor`.
     */
    const list = (query: ListAgentsQuery, caller: string): Effect.Effect<
      { readonly rows: ReadonlyArray<AgentListItem>; readonly nextCursor: string | null },
      InvalidCursor
    > =>
      Effect.gen(function*() {
        const filters = yield* filtersOf(query)
        const sort = query.sort ?? (query.q === undefined ? "rank" : "relevance")
        const page = yield* cursor.page({
          position: ListPosition,
          cursor: query.cursor,
          param: "cursor",
          binding: {
            operation: "Agents_ListAgents",
            principal: caller,
            sort,
            q: query.q ?? null,
            networks: filters.networks.join(","),
            protocols: filters.protocols.join(","),
            verificationStates: filters.verificationStates.join(",")
          },
          limit: query.limit,
          fetch: (after, take) => repo.list(filters, sort, after, take),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((row) => row.agent), nextCursor: page.nextCursor }
      })

    /** Agents_ListAgentFacets: the facet counts of the listed agents matching the filters. */
    const facets = (query: ListAgentFacetsQuery): Effect.Effect<AgentFacets> =>
      Effect.flatMap(filtersOf(query), repo.facets)

    /** Agents_GetAgent: the canonical profile, prices as of now. Fails with `AgentNotFound` (`agent-not-found`). */
    const profile = (entityId: string): Effect.Effect<AgentProfile, AgentNotFound> =>
      Effect.gen(function*() {
        const found = yield* repo.profile(entityId, yield* now)
        if (Option.isNone(found)) {
          return yield* new AgentNotFound({ detail: "No agent has this entity UUID." })
        }
        const agent = found.value
        return { entityId: agent.publicId, ...agent, canonicalUrl: canonicalAgentUrl(config.publicBaseUrl, agent.publicId) }
      })

    /**
     * Agents_GetPublicAgentActivity: one page of the agent's public activity items, newest
     * first, with the cursor of the next page (null on the last). The cursor is bound to the
     * agent and the filters (as one canonical string), not to `limit`. Fails with
     * `AgentNotFound` (unknown agent) or `InvalidCursor`.
     */
    const activity = (entityId: string, query: typeof GetPublicAgentActivityQuery.Type): Effect.Effect<
      { readonly rows: ReadonlyArray<ActivityItem>; readonly nextCursor: string | null },
      AgentNotFound | InvalidCursor
    > =>
      Effect.gen(function*() {
        const agentId = entityId.toLowerCase()
        if (!(yield* activityRepo.agentExists(agentId))) {
          return yield* new AgentNotFound({ detail: `No agent ${agentId}.` })
        }
        const { activityKeys, networks, sourceKinds } = query
        const filters = { sourceKinds, networks, activityKeys }
        const page = yield* cursor.page({
          position: ActivityPosition,
          cursor: query.cursor,
          param: "cursor",
          // the filters are bound as one canonical string: a cursor never crosses to another query
          binding: {
            operation: "Agents_GetPublicAgentActivity",
            agent: agentId,
            filters: JSON.stringify([[...sourceKinds].sort(), [...networks].sort(), [...activityKeys].sort()])
          },
          limit: query.limit,
          fetch: (after, take) => activityRepo.feed(agentId, filters, after, take),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((row) => row.item), nextCursor: page.nextCursor }
      })

    return { list, facets, profile, activity }
  }),
  dependencies: [AgentsRepo.Default, ActivityRepo.Default, QueryEmbeddingsLive]
}) {}
