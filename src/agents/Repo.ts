/**
 * SQL of the Agents area: an account's favorite agents (spec §2.10), the directory list
 * and the canonical agent profile (spec §9). Rows are built in their wire shape and
 * decoded with the area's schemas.
 */
import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import {
  AgentFacets,
  AgentLink,
  AgentListItem,
  AgentLocator,
  AgentOffer,
  type AgentSort,
  AgentState,
  AgentTrustSummary,
  FavoriteAgent
} from "../../schema/agents.js"
import { AgentProfileImportedFields } from "../../schema/agentImports.js"
import { DateTimeZ, Version } from "../../schema/common.js"
import { importedProfileColumns } from "./imports/ProfileColumns.js"
import { resolveWords } from "../db/textSearch.js"
import {
  MinVectorSimilarity,
  NearestNeighbours,
  type QueryVector,
  RelevanceCandidates,
  RelevanceWeights,
  type ResolvedWord,
  type TextSearch,
  VectorRelevanceWeights
} from "./SearchQuery.js"

/** Keyset position of a favorite: when it was added (ISO string) and the agent id; newest first. */
export const FavoritePosition = Schema.Tuple(Schema.String, Schema.String)

/**
 * Keyset position in the directory list: the sort key of the row as text (rank, with
 * 10^78 for unranked; lower-case name; `listed_at` with microseconds; relevance, 9 decimals) and the agent id,
 * which breaks ties. Which sort it belongs to is in the cursor's binding.
 */
export const ListPosition = Schema.Tuple(Schema.String, Schema.String)
export type ListPosition = typeof ListPosition.Type

/**
 * Filters of the directory list; an empty array does not filter. `networks`: keys or CAIP-2 ids.
 * `search`: the resolved text query (src/agents/SearchQuery.ts), absent without `q`.
 */
export interface AgentFilters {
  readonly networks: ReadonlyArray<string>
  readonly protocols: ReadonlyArray<string>
  readonly verificationStates: ReadonlyArray<string>
  readonly search: TextSearch | undefined
}

const FacetRow = Schema.Struct({ facet: Schema.String, value: Schema.String, count: Schema.String })

const FavoriteRow = Schema.Struct({ ...FavoriteAgent.fields, favoritedAt: Schema.String })
const ListRow = Schema.Struct({ ...AgentListItem.fields, sortKey: Schema.String })
const ProfileRow = Schema.Struct({
  ...AgentListItem.fields,
  version: Version,
  state: AgentState,
  retiredAt: Schema.NullOr(DateTimeZ),
  links: Schema.Array(AgentLink),
  listedAt: Schema.NullOr(DateTimeZ),
  locators: Schema.Array(AgentLocator),
  trust: AgentTrustSummary,
  offers: Schema.Array(AgentOffer),
  ...AgentProfileImportedFields
})

export class AgentsRepo extends Effect.Service<AgentsRepo>()("agent-directory/AgentsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The spec §2.10 columns of agent `a`. */
    const itemColumns = sql`a.id AS "publicId", a.canonical_slug AS "canonicalSlug", a.name, a.rank::text AS rank, a.tagline,
      a.description, a.star_count::text AS "starCount", a.verification_state AS "verificationState"`
    /** Networks (of registry-bound locators only) and protocols of agent `a`, sorted JSON arrays of keys. */
    const networksAndProtocols = sql`COALESCE((SELECT json_agg(n.network ORDER BY n.network) FROM (
          SELECT DISTINCT i.network FROM agent_identities i
          WHERE i.agent_id = a.id AND i.binding = 'REGISTRY_BOUND' AND i.network IS NOT NULL) n), '[]'::json) AS networks,
      COALESCE((SELECT json_agg(p.protocol_key ORDER BY p.protocol_key) FROM agent_protocols p WHERE p.agent_id = a.id),
        '[]'::json) AS protocols`

    const favorites = SqlSchema.findAll({
      Request: Schema.Struct({
        accountId: Schema.String,
        after: Schema.NullOr(FavoritePosition),
        take: Schema.Number
      }),
      Result: FavoriteRow,
      execute: ({ accountId, after, take }) =>
        sql`SELECT ${itemColumns},
              to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "favoritedAt"
            FROM favorite_agents f JOIN agents a ON a.id = f.agent_id
            WHERE f.account_id = ${accountId}
              ${after === null ? sql`` : sql`AND (f.created_at, f.agent_id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`}
            ORDER BY f.created_at DESC, f.agent_id DESC
            LIMIT ${take}`
    })

    /** Per sort: the key as text, the keyset condition after a position, and the order (served by 0013's indexes). */
    const sorts: Record<Exclude<AgentSort, "relevance">, {
      readonly key: Statement.Fragment
      readonly after: (p: ListPosition) => Statement.Fragment
      readonly order: Statement.Fragment
    }> = {
      rank: {
        key: sql`COALESCE(a.rank, 1e78)::text`,
        after: ([k, id]) => sql`(COALESCE(a.rank, 1e78), a.id) > (${k}::numeric, ${id}::uuid)`,
        order: sql`COALESCE(a.rank, 1e78), a.id`
      },
      name: {
        key: sql`lower(a.name)`,
        after: ([k, id]) => sql`(lower(a.name) COLLATE "C", a.id) > (${k}::text COLLATE "C", ${id}::uuid)`,
        order: sql`lower(a.name) COLLATE "C", a.id`
      },
      newest: {
        key: sql`to_char(a.listed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
        after: ([k, id]) => sql`(a.listed_at, a.id) < (${k}::timestamptz, ${id}::uuid)`,
        order: sql`a.listed_at DESC, a.id DESC`
      }
    }

    const filterClauses = (f: AgentFilters) => [
      sql`a.listed_at IS NOT NULL`,
      // a network named by key, or by CAIP-2 id (identities store the key)
      ...(f.networks.length === 0 ? [] : [sql`EXISTS (SELECT 1 FROM agent_identities i WHERE i.agent_id = a.id
        AND i.binding = 'REGISTRY_BOUND' AND (i.network IN ${sql.in(f.networks)}
          OR i.network IN (SELECT n.key FROM networks n WHERE n.caip2 IN ${sql.in(f.networks)})))`]),
      ...(f.protocols.length === 0 ? [] : [sql`EXISTS (SELECT 1 FROM agent_protocols p WHERE p.agent_id = a.id
        AND p.protocol_key IN ${sql.in(f.protocols)})`]),
      ...(f.verificationStates.length === 0 ? [] : [sql`a.verification_state IN ${sql.in(f.verificationStates)}`]),
      // the search document matches the text query (a query without a lexeme matches nothing), or, with a
      // query embedding, the agent is among its nearest
      ...(f.search === undefined ? [] : [matchClause(f.search)])
    ]

    /** `vector(n)` of a query embedding's dimensions (a type modifier is SQL text, not a parameter; an integer of ours). */
    const vectorType = (v: QueryVector) => sql.literal(`vector(${Math.trunc(v.dimensions)})`)

    /**
     * The ids of the agents nearest to the query embedding `v` (cosine distance, read through the HNSW index
     * of its dimensions, migration 0053): at most {@link NearestNeighbours}, cosine similarity at least
     * {@link MinVectorSimilarity}, embedded by the same model.
     */
    const nearest = (v: QueryVector) => {
      const type = vectorType(v)
      return sql`SELECT n.agent_id FROM (
          SELECT e.agent_id, e.embedding::${type} <=> ${v.literal}::${type} AS distance
          FROM agent_search_embeddings e WHERE e.dimensions = ${v.dimensions} AND e.model = ${v.model}
          ORDER BY e.embedding::${type} <=> ${v.literal}::${type} LIMIT ${NearestNeighbours}
        ) n WHERE n.distance <= ${1 - MinVectorSimilarity}`
    }

    const matchClause = (search: TextSearch) => {
      const text = search.tsquery === null ? sql`false` : sql`EXISTS (SELECT 1 FROM agent_search_documents d
          WHERE d.agent_id = a.id AND d.document @@ ${search.tsquery}::tsquery)`
      return search.vector === undefined ? text : sql`(${text} OR a.id IN (${nearest(search.vector)}))`
    }

    const list = (f: AgentFilters, sort: AgentSort, after: ListPosition | undefined, take: number) => {
      if (sort === "relevance" && f.search !== undefined) return relevanceList(f, f.search, after, take)
      const s = sorts[sort === "relevance" ? "rank" : sort]
      const where = sql.and([...filterClauses(f), ...(after === undefined ? [] : [s.after(after)])])
      return sql`SELECT ${itemColumns}, ${networksAndProtocols}, ${s.key} AS "sortKey"
          FROM agents a WHERE ${where} ORDER BY ${s.order} LIMIT ${take}`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(ListRow)))
      )
    }

    /**
     * The first phase of the relevance order (docs/methodology.md "Search relevance"): the ids of the listed
     * agents matching the filters and the text query `q`, the first `bound` in the rank order (the GIN index of
     * the documents and the rank keyset index of 0013; no score computed).
     */
    const candidates = (f: AgentFilters, q: Statement.Fragment, bound: number) =>
      sql`SELECT a.id FROM agents a JOIN agent_search_documents d ON d.agent_id = a.id
          WHERE ${sql.and([...filterClauses({ ...f, search: undefined }), sql`d.document @@ ${q}`])}
          ORDER BY COALESCE(a.rank, 1e78), a.id LIMIT ${bound}`

    /**
     * The relevance order: the blend (docs/methodology.md "Search relevance") of the candidates
     * ({@link candidates}, at most {@link RelevanceCandidates}), rounded to 9 decimals so the keyset compares
     * exact values, best first, ties by id. The page's ids are chosen first; only they get their networks and
     * protocols.
     */
    const relevanceList = (f: AgentFilters, search: TextSearch, after: ListPosition | undefined, take: number) =>
      Effect.gen(function*() {
        if (search.tsquery === null) return [] as ReadonlyArray<typeof ListRow.Type>
        const bound = yield* RelevanceCandidates
        if (search.vector !== undefined) return yield* vectorRelevanceList(f, search, search.vector, bound, after, take)
        const q = sql`${search.tsquery}::tsquery`
        const score = sql`round((${RelevanceWeights.text}::float8 * ts_rank(d.document, ${q}, 32)
          + ${RelevanceWeights.similarity}::float8 * word_similarity(${search.words}::text, d.names)
          + ${RelevanceWeights.reputation}::float8 * COALESCE(r.rank_score_ppm, 0) / 1e6)::numeric, 9)`
        const rows = yield* sql`WITH candidate AS MATERIALIZED (${candidates(f, q, bound)}), matched AS (
            SELECT c.id, ${score} AS score
            FROM candidate c JOIN agent_search_documents d ON d.agent_id = c.id
            LEFT JOIN agent_reputation r ON r.agent_id = c.id
          ), page AS (
            SELECT id, score FROM matched
            ${after === undefined ? sql`` : sql`WHERE score < ${after[0]}::numeric OR (score = ${after[0]}::numeric AND id > ${after[1]}::uuid)`}
            ORDER BY score DESC, id LIMIT ${take}
          )
          SELECT ${itemColumns}, ${networksAndProtocols}, page.score::text AS "sortKey"
          FROM page JOIN agents a ON a.id = page.id ORDER BY page.score DESC, page.id`
        return yield* Schema.decodeUnknown(Schema.Array(ListRow))(rows)
      })

    /**
     * The relevance order with a query embedding (docs/methodology.md "Search relevance", the weights
     * `VectorRelevanceWeights`): the candidates are the text candidates ({@link candidates}, at most `bound`)
     * and the agents nearest to the query's embedding ({@link nearest}) that pass the filters; each scores its
     * text rank, trigram similarity, cosine similarity (0 without an embedding of the model) and reputation.
     * Paged as {@link relevanceList}.
     */
    const vectorRelevanceList = (
      f: AgentFilters,
      search: TextSearch,
      v: QueryVector,
      bound: number,
      after: ListPosition | undefined,
      take: number
    ) => {
      const q = sql`${search.tsquery}::tsquery`
      const type = vectorType(v)
      const w = VectorRelevanceWeights
      const score = sql`round((${w.text}::float8 * ts_rank(d.document, ${q}, 32)
          + ${w.similarity}::float8 * word_similarity(${search.words}::text, d.names)
          + ${w.vector}::float8 * COALESCE(GREATEST(0, 1 - (e.embedding::${type} <=> ${v.literal}::${type})), 0)
          + ${w.reputation}::float8 * COALESCE(r.rank_score_ppm, 0) / 1e6)::numeric, 9)`
      const filters = filterClauses({ ...f, search: undefined })
      return sql`WITH near AS MATERIALIZED (${nearest(v)}), candidate AS MATERIALIZED (
            ${candidates(f, q, bound)}
            UNION SELECT a.id FROM agents a WHERE ${sql.and([...filters, sql`a.id IN (SELECT agent_id FROM near)`])}
          ), matched AS (
            SELECT c.id, ${score} AS score
            FROM candidate c JOIN agent_search_documents d ON d.agent_id = c.id
            LEFT JOIN agent_reputation r ON r.agent_id = c.id
            LEFT JOIN agent_search_embeddings e ON e.agent_id = c.id AND e.model = ${v.model} AND e.dimensions = ${v.dimensions}
          ), page AS (
            SELECT id, score FROM matched
            ${after === undefined ? sql`` : sql`WHERE score < ${after[0]}::numeric OR (score = ${after[0]}::numeric AND id > ${after[1]}::uuid)`}
            ORDER BY score DESC, id LIMIT ${take}
          )
          SELECT ${itemColumns}, ${networksAndProtocols}, page.score::text AS "sortKey"
          FROM page JOIN agents a ON a.id = page.id ORDER BY page.score DESC, page.id`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(ListRow)))
      )
    }

    /** Per facet, the counts of the listed agents matching `f` by value (read from their search documents). */
    const facets = (f: AgentFilters) =>
      sql`WITH m AS MATERIALIZED (
            SELECT a.verification_state, d.protocols, d.networks, d.skill_tags, d.sources, d.has_offers
            FROM agents a JOIN agent_search_documents d ON d.agent_id = a.id
            WHERE ${sql.and(filterClauses(f))}
          ), counts AS (
            SELECT 'total' AS facet, '' AS value, count(*) AS n FROM m
            UNION ALL SELECT 'protocols', v, count(*) FROM m, unnest(m.protocols) v GROUP BY v
            UNION ALL SELECT 'networks', v, count(*) FROM m, unnest(m.networks) v GROUP BY v
            UNION ALL SELECT 'verificationStates', m.verification_state, count(*) FROM m GROUP BY m.verification_state
            UNION ALL SELECT 'hasOffers', m.has_offers::text, count(*) FROM m GROUP BY m.has_offers
            UNION ALL SELECT 'sources', v, count(*) FROM m, unnest(m.sources) v GROUP BY v
            UNION ALL (SELECT 'skillTags', v, count(*) FROM m, unnest(m.skill_tags) v GROUP BY v
                       ORDER BY count(*) DESC, v COLLATE "C" LIMIT 50)
          )
          SELECT facet, value, n::text AS count FROM counts ORDER BY facet, n DESC, value COLLATE "C"`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(FacetRow))),
        Effect.map((rows): AgentFacets => {
          const of = (facet: string) =>
            rows.filter((r) => r.facet === facet).map((r) => ({ value: r.value, count: r.count }))
          return {
            total: rows.find((r) => r.facet === "total")?.count ?? "0",
            protocols: of("protocols"),
            networks: of("networks"),
            verificationStates: of("verificationStates"),
            skillTags: of("skillTags"),
            hasOffers: of("hasOffers"),
            sources: of("sources")
          }
        })
      )

    const profile = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, at: Schema.DateFromSelf }),
      Result: ProfileRow,
      execute: ({ at, id }) =>
        sql`SELECT ${itemColumns}, ${networksAndProtocols}, api_ts(a.listed_at) AS "listedAt",
              a.version::float8 AS version, a.state, api_ts(a.retired_at) AS "retiredAt", a.links,
              COALESCE((SELECT json_agg(json_build_object('publicId', i.id, 'locator', i.locator, 'networkFamily', i.family,
                          'locatorKind', i.kind, 'network', i.network,
                          'caip2', (SELECT n.caip2 FROM networks n WHERE n.key = i.network),
                          'registry', i.scope, 'nativeId', i.native_id, 'provenAt', api_ts(i.proven_at))
                          ORDER BY i.locator COLLATE "C", i.id)
                 FROM agent_identities i WHERE i.agent_id = a.id AND i.binding = 'REGISTRY_BOUND'), '[]'::json) AS locators,
              (SELECT json_build_object('ratingPpm', t.average_rating_ppm, 'feedbackCount', t.feedback_count::text,
                        'verifiedFeedbackCount', t.verified_feedback_count::text, 'latestFeedbackAt', api_ts(t.latest_feedback_at))
                 FROM agent_trust_figures t WHERE t.agent_id = a.id) AS trust,
              COALESCE((SELECT json_agg(json_build_object('id', o.id, 'serviceId', o.service_id, 'title', o.title, 'slug', o.slug,
                          'description', o.description, 'pricingModel', o.pricing_model, 'publishedAt', api_ts(o.published_at),
                          'currentPrice', (SELECT json_build_object('id', p.id, 'version', p.version, 'networkPublicId', p.network_id,
                              'assetPublicId', p.asset_id, 'units', p.units::text, 'effectiveFrom', api_ts(p.effective_from),
                              'effectiveUntil', api_ts(p.effective_until), 'x402ResourceTemplate', p.x402_resource_template)
                            FROM service_offer_prices p WHERE p.offer_id = o.id
                              AND p.effective_from <= ${at} AND (p.effective_until IS NULL OR p.effective_until > ${at})
                            ORDER BY p.effective_from DESC, p.version DESC, p.id LIMIT 1))
                          ORDER BY o.published_at DESC, o.id)
                 FROM service_offers o JOIN services s ON s.id = o.service_id
                 WHERE s.agent_id = a.id AND o.state = 'PUBLISHED'), '[]'::json) AS offers,
              ${importedProfileColumns(sql)}
            FROM agents a WHERE a.id = ${id}`
    })

    return {
      /** Favorites of an account after a position, newest first, with their position. */
      favorites: (accountId: string, after: typeof FavoritePosition.Type | undefined, take: number) =>
        Effect.orDie(favorites({ accountId, after: after ?? null, take })).pipe(
          Effect.map((rows) =>
            rows.map(({ favoritedAt, ...agent }) => ({ agent, position: [favoritedAt, agent.publicId] as const }))
          )
        ),
      /** Listed agents matching `filters`, in `sort` order, strictly after `after`, at most `take`, with their positions. */
      list: (filters: AgentFilters, sort: AgentSort, after: ListPosition | undefined, take: number) =>
        Effect.orDie(list(filters, sort, after, take)).pipe(
          Effect.map((rows) => rows.map(({ sortKey, ...agent }) => ({ agent, position: [sortKey, agent.publicId] as const })))
        ),
      /** The query words resolved against the search lexicon, in order (see `ResolvedWord`). */
      resolveWords: (words: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<ResolvedWord>> =>
        Effect.orDie(resolveWords(sql, words, "agent_search_lexicon")),
      /** The facet counts of the listed agents matching `filters` (Agents_ListAgentFacets). */
      facets: (filters: AgentFilters) => Effect.orDie(facets(filters)),
      /** The profile of an agent (prices in effect at `at`) without its canonical URL, or none. */
      profile: (id: string, at: Date) => Effect.orDie(profile({ id, at }))
    }
  })
}) {}
