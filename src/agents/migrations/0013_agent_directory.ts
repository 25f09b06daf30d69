/**
 * The agent directory reads (spec §9: Agents_ListAgents, Agents_GetAgent).
 *
 * - `agent_protocols`: the protocols (catalog keys) an agent speaks; the list's `protocols` filter.
 * - Keyset indexes, one per sort of the list, each ending in `id` so ties are ordered:
 *   rank (nulls last, through the sentinel 10^78, above every NUMERIC(78,0) rank),
 *   name (lower case, byte order so both databases order alike) and newest (`listed_at`).
 * - Registry-bound identities by network: the list's `networks` filter (observed
 *   FUNDED/TRANSFERRED addresses never place an agent on a network).
 * - `agent_trust_figures` gains `latest_feedback_at`: when the newest counted feedback was written
 *   (the freshness of the profile's trust summary). Same rule: only PUBLISHED feedback counts.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE agent_protocols (
  agent_id uuid NOT NULL REFERENCES agents(id),
  protocol_key text NOT NULL REFERENCES protocols(key),
  PRIMARY KEY (agent_id, protocol_key)
);
CREATE INDEX agent_protocols_protocol_idx ON agent_protocols (protocol_key, agent_id);

CREATE INDEX agents_rank_keyset_idx ON agents ((COALESCE(rank, 1e78)), id) WHERE listed_at IS NOT NULL;
CREATE INDEX agents_name_keyset_idx ON agents ((lower(name) COLLATE "C"), id) WHERE listed_at IS NOT NULL;
CREATE INDEX agents_newest_keyset_idx ON agents (listed_at DESC, id DESC) WHERE listed_at IS NOT NULL;

CREATE INDEX agent_identities_bound_network_idx ON agent_identities (network, agent_id) WHERE binding = 'REGISTRY_BOUND';

CREATE OR REPLACE VIEW agent_trust_figures AS
  SELECT a.id AS agent_id,
         count(f.id)::bigint AS feedback_count,
         round(avg(f.rating_ppm))::integer AS average_rating_ppm,
         (count(f.id) FILTER (WHERE f.authenticity_state = 'VERIFIED'))::bigint AS verified_feedback_count,
         max(f.created_at) AS latest_feedback_at
    FROM agents a
    LEFT JOIN feedback f ON f.agent_id = a.id AND f.state = 'PUBLISHED'
   GROUP BY a.id;
`)
})
