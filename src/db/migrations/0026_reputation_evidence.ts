/**
 * Evidence for the trust, rank and performance projections (spec §9), shared by
 * the writes that produce it and the projector that reads it.
 *
 * - `feedback.workspace_id`: the workspace a feedback speaks for (Trust_CreateFeedback).
 *   One live (not WITHDRAWN) feedback per workspace, agent and category; a new one edits it
 *   by revision. Null only for feedback written before this migration.
 * - `feedback_votes`: one helpful / not-helpful vote per account and feedback, changeable;
 *   `feedback.helpful_count` / `not_helpful_count` are kept equal to their counts.
 * - `agent_endpoint_probes`: each probe of an agent's stored endpoint (A2A interface, MCP
 *   server, ERC-8004 registration endpoint): when, whether it answered, in how many
 *   milliseconds, and a stable failure code when it did not. Append-only history.
 * - `reputation_dirty_agents`: agents whose evidence changed since their projection was
 *   last computed (`markAgentEvidence`, src/trust/reputation/Evidence.ts), written in the same
 *   transaction as the evidence; the projector drains it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE feedback ADD COLUMN workspace_id uuid REFERENCES workspaces(id);
CREATE UNIQUE INDEX feedback_live_idx ON feedback (workspace_id, agent_id, category)
  WHERE state <> 'WITHDRAWN' AND workspace_id IS NOT NULL;
CREATE INDEX feedback_author_idx ON feedback (author_account_id);

CREATE TABLE feedback_votes (
  feedback_id uuid NOT NULL REFERENCES feedback(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  vote text NOT NULL CHECK (vote IN ('HELPFUL','NOT_HELPFUL')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (feedback_id, account_id)
);

CREATE TABLE agent_endpoint_probes (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  endpoint_kind text NOT NULL CHECK (endpoint_kind IN ('A2A_INTERFACE','MCP_SERVER','REGISTRATION_ENDPOINT')),
  url text NOT NULL,
  probed_at timestamptz NOT NULL,
  ok boolean NOT NULL,
  -- milliseconds from request to answer; null when nothing answered
  latency_ms integer CHECK (latency_ms >= 0),
  -- stable code when not ok (TIMEOUT, REFUSED, HTTP_STATUS, PROTOCOL_ERROR, TARGET_REFUSED, ...)
  failure_code text CHECK (length(failure_code) <= 100)
);
CREATE INDEX agent_endpoint_probes_agent_idx ON agent_endpoint_probes (agent_id, probed_at DESC);
CREATE INDEX agent_endpoint_probes_probed_idx ON agent_endpoint_probes (probed_at);

CREATE TABLE reputation_dirty_agents (
  agent_id uuid PRIMARY KEY REFERENCES agents(id),
  marked_at timestamptz NOT NULL
);
`)
})
