/**
 * Vector similarity for the directory search, where the database has pgvector (docs/search.md
 * "Vector similarity"). Everything is created by `agent_search_vectors_enable()`, which this migration
 * calls and the embeddings indexer (src/agents/embeddings/EmbeddingIndexer.ts) calls again at start, so a
 * server whose database gains pgvector later (the Debian package `postgresql-15-pgvector`) enables it on
 * its next start. The function answers whether vectors are available:
 *
 * - `CREATE EXTENSION IF NOT EXISTS vector`, in its own subtransaction: without the extension (not
 *   installed, not allowed to the role, or the embedded database, whose PGlite build does not ship it)
 *   it answers false and creates nothing: the search stays text only.
 * - `agent_search_embeddings`: per agent, the embedding of its search text (`embedding`, any number of
 *   `dimensions`), the `model` that computed it and the MD5 of the text (`source_hash`), so an unchanged
 *   text is not embedded again.
 * - `agent_search_embedding_queue`: the agents whose search document changed since their embedding was
 *   computed; `generation` (a sequence) tells the indexer whether an agent changed again while its
 *   embedding was being computed. Statement-level triggers on `agent_search_documents` (transition tables)
 *   queue the agents of every inserted or changed document, in the writer's transaction.
 * - `agent_search_vectors_index(dims)`: the HNSW index (cosine distance) of the embeddings of `dims`
 *   dimensions, an expression index on `embedding::vector(dims)` restricted to those rows (pgvector
 *   indexes only typed dimensions, and not above 2000 of them: then the search reads them without index).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE FUNCTION agent_search_vectors_enable() RETURNS boolean LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN OTHERS THEN
      RETURN false;
    END;
  END IF;
  IF to_regclass('agent_search_embeddings') IS NOT NULL THEN RETURN true; END IF;
  EXECUTE $ddl$
    CREATE TABLE agent_search_embeddings (
      agent_id uuid PRIMARY KEY REFERENCES agents(id),
      model text NOT NULL,
      dimensions integer NOT NULL CHECK (dimensions > 0),
      source_hash text NOT NULL,
      embedding vector NOT NULL,
      embedded_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE SEQUENCE agent_search_embedding_generation;
    CREATE TABLE agent_search_embedding_queue (
      agent_id uuid PRIMARY KEY REFERENCES agents(id),
      generation bigint NOT NULL DEFAULT nextval('agent_search_embedding_generation')
    );
    CREATE INDEX agent_search_embedding_queue_generation_idx ON agent_search_embedding_queue (generation);

    CREATE FUNCTION agent_search_embedding_enqueue() RETURNS trigger LANGUAGE plpgsql AS $t$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO agent_search_embedding_queue (agent_id) SELECT n.agent_id FROM new_rows n
        ON CONFLICT (agent_id) DO UPDATE SET generation = EXCLUDED.generation;
      ELSE
        INSERT INTO agent_search_embedding_queue (agent_id)
        SELECT n.agent_id FROM new_rows n JOIN old_rows o ON o.agent_id = n.agent_id
        WHERE n.document IS DISTINCT FROM o.document
        ON CONFLICT (agent_id) DO UPDATE SET generation = EXCLUDED.generation;
      END IF;
      RETURN NULL;
    END
    $t$;
    CREATE TRIGGER agent_search_documents_embed_ins AFTER INSERT ON agent_search_documents
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agent_search_embedding_enqueue();
    CREATE TRIGGER agent_search_documents_embed_upd AFTER UPDATE ON agent_search_documents
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agent_search_embedding_enqueue();

    INSERT INTO agent_search_embedding_queue (agent_id) SELECT agent_id FROM agent_search_documents;
  $ddl$;
  RETURN true;
END
$fn$;

CREATE FUNCTION agent_search_vectors_index(dims integer) RETURNS boolean LANGUAGE plpgsql AS $fn$
BEGIN
  IF to_regclass('agent_search_embeddings') IS NULL OR dims < 1 OR dims > 2000 THEN RETURN false; END IF;
  EXECUTE format('CREATE INDEX IF NOT EXISTS agent_search_embeddings_hnsw_%s ON agent_search_embeddings '
    'USING hnsw ((embedding::vector(%s)) vector_cosine_ops) WHERE dimensions = %s', dims, dims, dims);
  RETURN true;
END
$fn$;

SELECT agent_search_vectors_enable();
`)
})
