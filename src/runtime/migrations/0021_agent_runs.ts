/**
 * Agent runs for real: model configuration, steps, tool calls with their
 * approvals, usage and cost, run events for live following.
 *
 * - `agent_runtime_configs`: `temperature` (0-2, null = the provider's default),
 *   `max_output_tokens` (null = the provider's default), `tool_grants`: an object
 *   `{ "<stableName>": "GRANTED" | "APPROVAL_REQUIRED" }`; a tool not named is not
 *   offered to the model. `runtime_tools.grant_state` mirrors it per tool row.
 * - `runs`: token usage and cost (`cost_micro_usd`, null when the model has no price
 *   configured), the `provider` and `model` it ran with (set when it starts), the `deadline_at` past which the run ends TIMED_OUT, the time a cancel
 *   was asked, the schedule that started it, and `event_seq`: the last `run_events.seq`
 *   of the run. Taking the next seq updates the run's row, so appends of one run are
 *   serialized and their seq order is their commit order (a reader following `seq`
 *   never skips an event that commits late).
 * - `run_steps`: one model call of a run (ordinal 1, 2, …), with its usage.
 * - `run_tool_calls`: one tool call the model asked for; `id` is the `toolCallId` of the
 *   API, `provider_call_id` the model's own id. `approval_state` NOT_REQUIRED, PENDING,
 *   APPROVED or DENIED; `state` PENDING → (APPROVAL_REQUIRED →) RUNNING → SUCCEEDED |
 *   FAILED, or DENIED / CANCELLED.
 * - `run_events`: what a follower of the run sees (`GET /api/v1/runs/{runId}/events`),
 *   in `seq` order per run; `kind` and `data` are described in `src/runtime/events/RunEventLog.ts`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE agent_runtime_configs
  ADD COLUMN temperature double precision CHECK (temperature >= 0 AND temperature <= 2),
  ADD COLUMN max_output_tokens integer CHECK (max_output_tokens > 0),
  ADD COLUMN tool_grants jsonb NOT NULL DEFAULT '{}'::jsonb;

ALTER TABLE runs
  ADD COLUMN input_tokens bigint NOT NULL DEFAULT 0 CHECK (input_tokens >= 0),
  ADD COLUMN output_tokens bigint NOT NULL DEFAULT 0 CHECK (output_tokens >= 0),
  ADD COLUMN cost_micro_usd bigint CHECK (cost_micro_usd >= 0),
  ADD COLUMN deadline_at timestamptz,
  ADD COLUMN cancel_requested_at timestamptz,
  ADD COLUMN schedule_id uuid,
  ADD COLUMN provider text,
  ADD COLUMN model text,
  ADD COLUMN event_seq bigint NOT NULL DEFAULT 0;

CREATE TABLE run_steps (
  run_id uuid NOT NULL REFERENCES runs(id),
  ordinal integer NOT NULL CHECK (ordinal > 0),
  state text NOT NULL CHECK (state IN ('RUNNING','SUCCEEDED','FAILED','CANCELLED')),
  finish_reason text,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL,
  completed_at timestamptz,
  PRIMARY KEY (run_id, ordinal)
);

CREATE TABLE run_tool_calls (
  id uuid PRIMARY KEY,
  run_id uuid NOT NULL REFERENCES runs(id),
  step_ordinal integer NOT NULL,
  provider_call_id text NOT NULL,
  tool_id uuid REFERENCES runtime_tools(id),
  stable_name text NOT NULL,
  arguments jsonb NOT NULL,
  state text NOT NULL CHECK (state IN ('PENDING','APPROVAL_REQUIRED','RUNNING','SUCCEEDED','FAILED','DENIED','CANCELLED')),
  approval_state text NOT NULL CHECK (approval_state IN ('NOT_REQUIRED','PENDING','APPROVED','DENIED')),
  decided_by uuid REFERENCES accounts(id),
  decided_at timestamptz,
  result jsonb,
  is_error boolean,
  error_code text,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  completed_at timestamptz,
  UNIQUE (run_id, provider_call_id)
);
CREATE INDEX run_tool_calls_run_idx ON run_tool_calls (run_id, created_at);

CREATE TABLE run_events (
  run_id uuid NOT NULL REFERENCES runs(id),
  seq bigint NOT NULL CHECK (seq > 0),
  kind text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (run_id, seq)
);
`)
})
