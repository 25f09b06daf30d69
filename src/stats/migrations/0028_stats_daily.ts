/**
 * Daily statistics as immutable projections (spec §9 "/api/v1/stats/*
 * immutable projections"): one stored document per closed UTC day of the directory
 * (`stats_directory_daily`) and per agent and closed day (`stats_agent_daily`).
 *
 * - `document`: the exact JSON text of the day's `data` (src/stats/Document.ts); it is what
 *   the stats reads serve, byte for byte, and it never changes once written (the first
 *   projection wins: `INSERT … ON CONFLICT DO NOTHING`, then read back).
 * - `etag`: the strong entity tag of the document and its freshness (src/stats/Document.ts).
 * - `projected_at`: when it was projected; `source_watermark`: the instant before which the
 *   evidence it counts was recorded (the day's end, `YYYY-MM-DDT00:00:00.000Z` of the next day).
 *
 * Indexes (named `stats_*`) for the day's evidence, read by time range (the projection's set-based queries):
 * runs by start and by completion, feedback by creation, activity by occurrence.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE stats_directory_daily (
  day date PRIMARY KEY,
  document text NOT NULL,
  etag text NOT NULL,
  projected_at timestamptz NOT NULL,
  source_watermark text NOT NULL
);

CREATE TABLE stats_agent_daily (
  agent_id uuid NOT NULL REFERENCES agents(id),
  day date NOT NULL,
  document text NOT NULL,
  etag text NOT NULL,
  projected_at timestamptz NOT NULL,
  source_watermark text NOT NULL,
  PRIMARY KEY (agent_id, day)
);

CREATE INDEX stats_runs_started_idx ON runs (started_at) WHERE started_at IS NOT NULL;
CREATE INDEX stats_runs_completed_idx ON runs (completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX stats_feedback_created_idx ON feedback (created_at);
CREATE INDEX stats_agent_activity_occurred_idx ON agent_activity (occurred_at);
CREATE INDEX stats_favorite_agents_agent_idx ON favorite_agents (agent_id, created_at);
`)
})
