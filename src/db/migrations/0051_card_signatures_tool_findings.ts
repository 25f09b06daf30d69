/**
 * Verified card signatures and tool-safety findings (docs/findings.md), spanning the agents
 * imports, MCP, runtime and trust areas:
 *
 * - `agent_a2a_cards.signature_state` (VERIFIED, INVALID, UNSIGNED), `signer_kid`,
 *   `signer_jku`: the outcome of verifying the card's JWS `signatures[]` when it was imported
 *   (src/agents/imports/CardSignatures.ts); null for a card stored before verification existed.
 * - `agent_findings`: what the tool-safety heuristics found in an agent's MCP catalogs and
 *   endpoints (src/mcp/findings/), one row per finding, keyed by its `fingerprint` (kind, rule,
 *   subject and evidence), replaced when the catalog is fetched again; `detected_at` is when it
 *   was first found. Read by Trust_ListAgentFindings (src/trust/findings/).
 * - `runtime_tool_approvals`: the tool definition (digest) a person approved for an agent's
 *   tool by stable name, by granting it (Runtime_ConfigureAgentRuntime) or by approving a call
 *   of it (Runtime_DecideToolApproval). Without a row, the tool's first definition (version 1)
 *   is the approved one. A call of a tool whose latest definition is not the approved one waits
 *   for a person's approval (src/runtime/loop/).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE agent_a2a_cards ADD COLUMN signature_state text CHECK (signature_state IN ('VERIFIED','INVALID','UNSIGNED'));
ALTER TABLE agent_a2a_cards ADD COLUMN signer_kid text;
ALTER TABLE agent_a2a_cards ADD COLUMN signer_jku text;

CREATE TABLE agent_findings (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  connection_id uuid,
  fingerprint text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('TOOL_DEFINITION_CHANGED','HIDDEN_INSTRUCTIONS','INVISIBLE_CHARACTERS','TOOL_SHADOWING','ENDPOINT_NOT_MCP')),
  rule_id text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('LOW','MEDIUM','HIGH','CRITICAL')),
  subject text NOT NULL,
  evidence jsonb NOT NULL,
  before_digest text,
  after_digest text,
  detected_at timestamptz NOT NULL,
  seen_at timestamptz NOT NULL,
  UNIQUE (agent_id, fingerprint)
);
CREATE INDEX agent_findings_list_idx ON agent_findings (agent_id, detected_at, id);
CREATE INDEX agent_findings_connection_idx ON agent_findings (connection_id);

CREATE TABLE runtime_tool_approvals (
  agent_id uuid NOT NULL REFERENCES agents(id),
  stable_name text NOT NULL,
  definition_digest text NOT NULL,
  approved_by uuid,
  approved_at timestamptz NOT NULL,
  PRIMARY KEY (agent_id, stable_name)
);
`)
})
