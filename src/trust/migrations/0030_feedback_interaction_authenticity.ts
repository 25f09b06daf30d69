/**
 * Feedback written through the API (Trust_CreateFeedback) carries
 * `authenticity_state` VERIFIED_INTERACTION when the workspace it speaks for interacted
 * with the agent (an order or a run), else UNVERIFIED. The view `agent_trust_figures`
 * (the profile's trust summary, until the reputation projections replace it) counted only
 * the seeded `VERIFIED`; it now counts both as verified. Same rule otherwise: only
 * PUBLISHED feedback counts.
 *
 * Also an index for the interaction check: a workspace's orders by agent.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE OR REPLACE VIEW agent_trust_figures AS
  SELECT a.id AS agent_id,
         count(f.id)::bigint AS feedback_count,
         round(avg(f.rating_ppm))::integer AS average_rating_ppm,
         (count(f.id) FILTER (WHERE f.authenticity_state IN ('VERIFIED', 'VERIFIED_INTERACTION')))::bigint AS verified_feedback_count,
         max(f.created_at) AS latest_feedback_at
    FROM agents a
    LEFT JOIN feedback f ON f.agent_id = a.id AND f.state = 'PUBLISHED'
   GROUP BY a.id;

CREATE INDEX orders_workspace_agent_idx ON orders (workspace_id, agent_id) WHERE agent_id IS NOT NULL;
`)
})
