/**
 * SQL of the search's embeddings (migration 0053, docs/search.md "Vector similarity"): the queue of agents
 * whose search document changed, their search text, and the stored embeddings. Only used where
 * `agent_search_vectors_enable()` answered true (the tables exist).
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"

/** Most characters of an agent's search text sent to the model (about 2,000 tokens, within every model's input limit). */
export const MaxTextChars = 8000

/** One queued agent: its search text (and its MD5), and the MD5 of the text its stored embedding of the model was computed from. */
export interface QueuedAgent {
  readonly agentId: string
  readonly generation: string
  readonly text: string
  readonly hash: string
  readonly storedHash: string | null
}

/** An embedding computed for a queued agent. */
export interface ComputedEmbedding {
  readonly agentId: string
  readonly hash: string
  readonly dimensions: number
  /** pgvector's text form. */
  readonly literal: string
}

/**
 * Creates the vector tables when the database has (or can create) the `vector` extension; answers whether
 * it does (migration 0053's `agent_search_vectors_enable()`).
 */
export const enableVectors: Effect.Effect<boolean, SqlError.SqlError, SqlClient.SqlClient> = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => Effect.map(sql<{ ok: boolean }>`SELECT agent_search_vectors_enable() AS ok`, ([row]) => row?.ok === true)
)

/** Queues every agent that has no embedding of `model` (the first start with a model, or a changed model). */
export const queueMissing = (model: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO agent_search_embedding_queue (agent_id)
        SELECT d.agent_id FROM agent_search_documents d
        WHERE NOT EXISTS (SELECT 1 FROM agent_search_embeddings e WHERE e.agent_id = d.agent_id AND e.model = ${model})
        ON CONFLICT (agent_id) DO NOTHING`)

/**
 * The `limit` longest-queued agents with their search text: the fields of their search document
 * (docs/search.md "The search document"), most weighed first: name; tagline; description; skills (name:
 * description) and their tags; protocol names; MCP tools (name words: description); published offer titles.
 */
export const nextQueued = (model: string, limit: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<QueuedAgent>`WITH q AS (
          SELECT agent_id, generation FROM agent_search_embedding_queue ORDER BY generation LIMIT ${limit}
        ), t AS (
          SELECT q.agent_id, q.generation, left(concat_ws(E'\\n', a.name, a.tagline, NULLIF(a.description, ''),
            (SELECT string_agg(concat_ws(': ', s.name, s.description), E'\\n' ORDER BY s.position)
               FROM agent_skills s WHERE s.agent_id = a.id),
            (SELECT string_agg(DISTINCT tag, ' ') FROM agent_skills s, jsonb_array_elements_text(s.tags) tag
               WHERE s.agent_id = a.id),
            (SELECT string_agg(p.name, ', ' ORDER BY p.name)
               FROM agent_protocols ap JOIN protocols p ON p.key = ap.protocol_key WHERE ap.agent_id = a.id),
            (SELECT string_agg(concat_ws(': ', agent_search_words(r.stable_name), r.description), E'\\n' ORDER BY r.stable_name)
               FROM runtime_tools r WHERE r.agent_id = a.id AND r.source_kind = 'MCP_SERVER' AND r.available),
            (SELECT string_agg(o.title, E'\\n' ORDER BY o.title)
               FROM services s JOIN service_offers o ON o.service_id = s.id WHERE s.agent_id = a.id AND o.state = 'PUBLISHED')
          ), ${MaxTextChars}) AS text
          FROM q JOIN agents a ON a.id = q.agent_id
        )
        SELECT t.agent_id AS "agentId", t.generation::text AS generation, t.text, md5(t.text) AS hash,
          (SELECT e.source_hash FROM agent_search_embeddings e WHERE e.agent_id = t.agent_id AND e.model = ${model}) AS "storedHash"
        FROM t ORDER BY t.generation`)

/**
 * In one transaction: stores `computed` (embeddings of `model`, replacing the agents' previous ones) and
 * takes `done` off the queue, each only at the generation that was read (an agent queued again meanwhile
 * stays queued). Fails with `SqlError`.
 */
export const storeEmbeddings = (
  model: string,
  computed: ReadonlyArray<ComputedEmbedding>,
  done: ReadonlyArray<{ readonly agentId: string; readonly generation: string }>,
  at: Date
) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(Effect.gen(function*() {
      if (computed.length > 0) {
        yield* sql`INSERT INTO agent_search_embeddings AS t (agent_id, model, dimensions, source_hash, embedding, embedded_at)
            SELECT r."agentId", ${model}, r.dimensions, r.hash, r.literal::vector, ${at}
            FROM jsonb_to_recordset(${JSON.stringify(computed)}::jsonb) AS r("agentId" uuid, dimensions integer, hash text, literal text)
            ON CONFLICT (agent_id) DO UPDATE SET model = EXCLUDED.model, dimensions = EXCLUDED.dimensions,
              source_hash = EXCLUDED.source_hash, embedding = EXCLUDED.embedding, embedded_at = EXCLUDED.embedded_at`
      }
      yield* sql`DELETE FROM agent_search_embedding_queue q
          USING jsonb_to_recordset(${JSON.stringify(done)}::jsonb) AS r("agentId" uuid, generation bigint)
          WHERE q.agent_id = r."agentId" AND q.generation = r.generation`
    })))

/** The HNSW index of the embeddings of `dimensions` (migration 0053's `agent_search_vectors_index`); answers whether there is one. */
export const ensureIndex = (dimensions: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ ok: boolean }>`SELECT agent_search_vectors_index(${dimensions}) AS ok`, ([row]) => row?.ok === true))
