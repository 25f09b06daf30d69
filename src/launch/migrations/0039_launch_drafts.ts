/**
 * Launch drafts and the chain side of launch runs (spec §2.4):
 * - `launch_drafts`: what a run launches: the agent (operated by the draft's workspace), the
 *   venue, the network (CAIP-2) and the owner's wallet that signs (`signer_address`, EIP-55);
 *   for EXTERNAL_IMPORT the existing registry token (`token_id`, decimal) the run attaches.
 * - `launch_runs.agent_id`: the agent of the run's draft (null for runs older than drafts);
 *   `launch_runs_list_idx` serves Launch_ListLaunchRuns (newest first per workspace).
 * - `launch_transaction_intents.transaction_intent_id`: the chain transaction intent
 *   (`transaction_intents`, layers/TransactionIntents.ts) of the attempt, once materialized.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE launch_drafts (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  agent_id uuid NOT NULL REFERENCES agents(id),
  venue text NOT NULL CHECK (venue IN ('REGISTRY_GENESIS','LAUNCHPAD_FUN','BROKER_CHAIN','EXTERNAL_IMPORT')),
  -- CAIP-2, e.g. eip155:8453
  network text NOT NULL CHECK (network ~ '^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$'),
  signer_address text NOT NULL CHECK (signer_address ~ '^0x[0-9a-fA-F]{40}$'),
  -- EXTERNAL_IMPORT only: the registry token to attach
  token_id numeric(78,0) CHECK (token_id >= 0),
  created_by uuid NOT NULL REFERENCES accounts(id),
  created_at timestamptz NOT NULL,
  CHECK ((venue = 'EXTERNAL_IMPORT') = (token_id IS NOT NULL))
);
CREATE INDEX launch_drafts_workspace_idx ON launch_drafts (workspace_id, created_at);

ALTER TABLE launch_runs ADD COLUMN agent_id uuid REFERENCES agents(id);
CREATE INDEX launch_runs_list_idx ON launch_runs (workspace_id, requested_at DESC, id DESC);

ALTER TABLE launch_transaction_intents ADD COLUMN transaction_intent_id uuid;
`)
})
