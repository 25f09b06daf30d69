/**
 * Relevance search over the directory (Agents_ListAgents' `q`, Agents_ListAgentFacets; docs/search.md).
 *
 * - Extensions `unaccent` and `pg_trgm` (both trusted: the database owner creates them; the embedded
 *   database loads them, layers/Db.ts), and the text search configuration `agent_search`: English
 *   stemming after `unaccent`, so "Café" and "cafe" are one lexeme.
 * - `agent_protocols.origin`: DECLARED (written by a person or the seed) or DERIVED (computed from the
 *   agent's imports by `agent_search_refresh`, replaced on every refresh; a DECLARED row is never touched).
 * - `agent_search_documents`: one maintained row per agent, its search document and facet values:
 *   `document` the weighted tsvector (A: name, slug; B: tagline, skill names and tags; C: description,
 *   protocol names, skill descriptions, MCP tool names, published offer titles; D: MCP tool
 *   descriptions), `names` (lower-case, unaccented name, tagline, skill and tool names: the trigram
 *   similarity of the ranking), and the facet values `protocols`, `networks`, `skill_tags`, `sources`
 *   (kinds of SUCCEEDED imports, or DIRECTORY) and `has_offers`.
 * - `agent_search_lexicon`: every lexeme of every document (trigram-indexed): a query word that is not
 *   in it is a typo or unknown, and is widened to its three nearest lexemes.
 * - `agent_search_refresh(ids)`: derives the protocols of the agents `ids` and rewrites their documents,
 *   set-based. Statement-level triggers (transition tables) on every table a document reads call it in
 *   the writing transaction, once per statement, whoever writes: registration, imports, MCP catalogs,
 *   identities, offers, the seed. While it runs, `agent_search.refreshing` is `on` and the triggers of its
 *   own writes (derived protocols) do nothing.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Tables whose rows feed a document, with the column that names the agent (`service_id`: through `services`). */
const sources: ReadonlyArray<readonly [table: string, column: string]> = [
  ["agent_protocols", "agent_id"],
  ["agent_skills", "agent_id"],
  ["agent_interfaces", "agent_id"],
  ["agent_a2a_cards", "agent_id"],
  ["agent_registration_endpoints", "agent_id"],
  ["agent_identity_claims", "agent_id"],
  ["agent_identities", "agent_id"],
  ["agent_imports", "agent_id"],
  ["runtime_tools", "agent_id"],
  ["services", "agent_id"],
  ["service_offers", "service_id"]
]

const triggers = sources.map(([table, column]) => `
CREATE TRIGGER ${table}_search_ins AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION agent_search_touch('${column}');
CREATE TRIGGER ${table}_search_upd AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION agent_search_touch('${column}');
CREATE TRIGGER ${table}_search_del AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION agent_search_touch('${column}');`).join("\n")

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TEXT SEARCH CONFIGURATION agent_search (COPY = english);
ALTER TEXT SEARCH CONFIGURATION agent_search ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;

ALTER TABLE agent_protocols ADD COLUMN origin text NOT NULL DEFAULT 'DECLARED' CHECK (origin IN ('DECLARED','DERIVED'));

CREATE TABLE agent_search_documents (
  agent_id uuid PRIMARY KEY REFERENCES agents(id),
  document tsvector NOT NULL,
  names text NOT NULL,
  protocols text[] NOT NULL,
  networks text[] NOT NULL,
  skill_tags text[] NOT NULL,
  sources text[] NOT NULL,
  has_offers boolean NOT NULL
);
CREATE INDEX agent_search_documents_document_idx ON agent_search_documents USING gin (document);

CREATE TABLE agent_search_lexicon (lexeme text PRIMARY KEY);
CREATE INDEX agent_search_lexicon_trgm_idx ON agent_search_lexicon USING gin (lexeme gin_trgm_ops);

CREATE INDEX IF NOT EXISTS services_agent_idx ON services (agent_id);
CREATE INDEX IF NOT EXISTS service_offers_service_idx ON service_offers (service_id);

-- words of identifiers (docs.search, get_weather, a/b:c) as separate words
CREATE FUNCTION agent_search_words(t text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT regexp_replace(COALESCE(t, ''), '[._/:]+', ' ', 'g') $$;

CREATE FUNCTION agent_search_refresh(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM set_config('agent_search.refreshing', 'on', true);
  -- derived protocols: a catalog protocol the agent's imports show it speaks
  DELETE FROM agent_protocols WHERE agent_id = ANY(ids) AND origin = 'DERIVED';
  INSERT INTO agent_protocols (agent_id, protocol_key, origin)
  SELECT DISTINCT d.agent_id, d.key, 'DERIVED' FROM (
      SELECT agent_id, 'a2a' AS key FROM agent_a2a_cards WHERE agent_id = ANY(ids)
      UNION ALL SELECT agent_id, 'a2a' FROM agent_interfaces WHERE agent_id = ANY(ids)
      UNION ALL SELECT agent_id, 'erc-8004' FROM agent_identity_claims WHERE agent_id = ANY(ids)
      UNION ALL SELECT agent_id, 'mcp' FROM agent_imports
        WHERE agent_id = ANY(ids) AND kind = 'MCP_SERVER' AND state = 'SUCCEEDED'
      UNION ALL SELECT agent_id, lower(name) FROM agent_registration_endpoints WHERE agent_id = ANY(ids)
    ) d JOIN protocols p ON p.key = d.key
  ON CONFLICT (agent_id, protocol_key) DO NOTHING;

  WITH docs AS (
    INSERT INTO agent_search_documents AS t (agent_id, document, names, protocols, networks, skill_tags, sources, has_offers)
    SELECT a.id,
      setweight(to_tsvector('agent_search', a.name || ' ' || replace(a.canonical_slug, '-', ' ')), 'A')
      || setweight(to_tsvector('agent_search', concat_ws(' ', a.tagline, agent_search_words(sk.names), sk.tags)), 'B')
      || setweight(to_tsvector('agent_search', concat_ws(' ', a.description, pr.names, sk.descriptions,
           agent_search_words(tl.names), ofr.titles)), 'C')
      || setweight(to_tsvector('agent_search', COALESCE(tl.descriptions, '')), 'D'),
      left(btrim(regexp_replace(lower(unaccent(concat_ws(' ', a.name, a.tagline, agent_search_words(sk.names),
        agent_search_words(tl.names)))), '\\s+', ' ', 'g')), 2000),
      COALESCE(pr.keys, '{}'),
      ARRAY(SELECT DISTINCT i.network FROM agent_identities i
            WHERE i.agent_id = a.id AND i.binding = 'REGISTRY_BOUND' AND i.network IS NOT NULL ORDER BY 1),
      ARRAY(SELECT DISTINCT lower(tag) FROM agent_skills s, jsonb_array_elements_text(s.tags) tag
            WHERE s.agent_id = a.id ORDER BY 1),
      COALESCE(NULLIF(ARRAY(SELECT DISTINCT m.kind FROM agent_imports m
            WHERE m.agent_id = a.id AND m.state = 'SUCCEEDED' ORDER BY 1), '{}'), '{DIRECTORY}'),
      EXISTS (SELECT 1 FROM services s JOIN service_offers o ON o.service_id = s.id
              WHERE s.agent_id = a.id AND o.state = 'PUBLISHED')
    FROM agents a
    LEFT JOIN LATERAL (
      SELECT string_agg(s.name, ' ') AS names, string_agg(s.description, ' ') AS descriptions,
             (SELECT string_agg(tag, ' ') FROM agent_skills s2, jsonb_array_elements_text(s2.tags) tag
               WHERE s2.agent_id = a.id) AS tags
      FROM agent_skills s WHERE s.agent_id = a.id) sk ON true
    LEFT JOIN LATERAL (
      SELECT string_agg(p.name || ' ' || p.key, ' ') AS names, array_agg(p.key ORDER BY p.key) AS keys
      FROM agent_protocols ap JOIN protocols p ON p.key = ap.protocol_key WHERE ap.agent_id = a.id) pr ON true
    LEFT JOIN LATERAL (
      SELECT string_agg(r.stable_name, ' ') AS names, string_agg(r.description, ' ') AS descriptions
      FROM runtime_tools r WHERE r.agent_id = a.id AND r.source_kind = 'MCP_SERVER' AND r.available) tl ON true
    LEFT JOIN LATERAL (
      SELECT string_agg(o.title, ' ') AS titles FROM services s JOIN service_offers o ON o.service_id = s.id
      WHERE s.agent_id = a.id AND o.state = 'PUBLISHED') ofr ON true
    WHERE a.id = ANY(ids)
    ON CONFLICT (agent_id) DO UPDATE SET document = EXCLUDED.document, names = EXCLUDED.names,
      protocols = EXCLUDED.protocols, networks = EXCLUDED.networks, skill_tags = EXCLUDED.skill_tags,
      sources = EXCLUDED.sources, has_offers = EXCLUDED.has_offers
    RETURNING t.document
  )
  INSERT INTO agent_search_lexicon (lexeme)
  SELECT DISTINCT w FROM docs, unnest(tsvector_to_array(docs.document)) w WHERE length(w) BETWEEN 2 AND 64
  ON CONFLICT (lexeme) DO NOTHING;
  PERFORM set_config('agent_search.refreshing', 'off', true);
END
$fn$;

-- statement-level: the agents a statement touched (TG_ARGV[0]: the column naming the agent)
CREATE FUNCTION agent_search_touch() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  ids uuid[];
  pick text := CASE WHEN TG_ARGV[0] = 'service_id'
    THEN 'SELECT s.agent_id FROM %1$s r JOIN services s ON s.id = r.service_id'
    ELSE 'SELECT r.' || quote_ident(TG_ARGV[0]) || ' FROM %1$s r' END;
BEGIN
  IF current_setting('agent_search.refreshing', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    EXECUTE 'SELECT array_agg(DISTINCT x) FROM (' || format(pick, 'new_rows') || ') q(x) WHERE x IS NOT NULL' INTO ids;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE 'SELECT array_agg(DISTINCT x) FROM (' || format(pick, 'old_rows') || ') q(x) WHERE x IS NOT NULL' INTO ids;
  ELSE
    EXECUTE 'SELECT array_agg(DISTINCT x) FROM (' || format(pick, 'new_rows') || ' UNION ALL ' || format(pick, 'old_rows')
      || ') q(x) WHERE x IS NOT NULL' INTO ids;
  END IF;
  IF ids IS NOT NULL THEN PERFORM agent_search_refresh(ids); END IF;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION agent_search_touch_agent() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM agent_search_refresh(ARRAY[NEW.id]);
  RETURN NULL;
END
$fn$;

CREATE TRIGGER agents_search_ins AFTER INSERT ON agents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION agent_search_touch('id');
CREATE TRIGGER agents_search_upd AFTER UPDATE OF name, canonical_slug, tagline, description ON agents
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.canonical_slug IS DISTINCT FROM NEW.canonical_slug
    OR OLD.tagline IS DISTINCT FROM NEW.tagline OR OLD.description IS DISTINCT FROM NEW.description)
  EXECUTE FUNCTION agent_search_touch_agent();
${triggers}

SELECT agent_search_refresh(ARRAY(SELECT id FROM agents));
`)
})
