/**
 * The trust, rank and performance projections of each agent (spec §9;
 * src/trust/reputation/, docs/methodology.md). One row per projected agent:
 *
 * - `trust`, `performance`, `rank`: the documents of Trust_GetAgentTrust, Trust_GetAgentPerformance
 *   and Trust_GetAgentRank without their methodology and freshness (added on read): the value,
 *   its confidence, coverage and components, as computed by the projector in SQL;
 * - `trust_ppm`, `performance_ppm` (null without run or probe evidence), `rank_score_ppm`:
 *   the scores (parts per million), so ranking is one indexed window over a column;
 * - `projected_at`: when the projection was computed; `source_watermark`: which evidence it was
 *   computed from (`<newest evidence time>#<evidence rows>`, see docs/methodology.md).
 *
 * The ordinal rank itself stays in `agents.rank` (the list, the profile and favorites read it),
 * written from `rank_score_ppm` over listed agents.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE agent_reputation (
  agent_id uuid PRIMARY KEY REFERENCES agents(id),
  trust jsonb NOT NULL,
  performance jsonb NOT NULL,
  rank jsonb NOT NULL,
  trust_ppm integer NOT NULL CHECK (trust_ppm BETWEEN 0 AND 1000000),
  performance_ppm integer CHECK (performance_ppm BETWEEN 0 AND 1000000),
  rank_score_ppm integer NOT NULL CHECK (rank_score_ppm BETWEEN 0 AND 1000000),
  projected_at timestamptz NOT NULL,
  source_watermark text NOT NULL
);
CREATE INDEX agent_reputation_score_idx ON agent_reputation (rank_score_ppm DESC, agent_id);
CREATE INDEX runs_agent_completed_idx ON runs (agent_id, completed_at) WHERE completed_at IS NOT NULL;
`)
})
