/**
 * Agent schedules that fire.
 *
 * - `agent_schedules`: a cron expression (as validated, trimmed) in a canonical IANA
 *   `timezone`, the `message` each occurrence sends, `enabled`, and the CHAT
 *   conversation (one per schedule, authored by its creator) its runs post in.
 *   `next_occurrence_at` is the instant it fires next: NULL when disabled, deleted or
 *   when the expression never fires again; the firing cron claims the rows with
 *   `next_occurrence_at <= now` (`agent_schedules_due_idx`). A deleted schedule keeps its
 *   row (`deleted_at`; its runs name it) and never fires. `version` counts changes of
 *   the definition (commands), not firings.
 * - `agent_schedule_firings`: one row per occurrence handled: the run it STARTED, or why
 *   it was skipped (SKIPPED_RUN_ACTIVE: the previous run of the conversation is still
 *   active; SKIPPED_NO_RUNTIME; SKIPPED_AGENT_RETIRED). Its primary key (schedule,
 *   occurrence) makes a second firing of one occurrence impossible.
 * - `runs.schedule_id` (0021) references the schedule.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE agent_schedules (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  conversation_id uuid NOT NULL UNIQUE REFERENCES conversations(id),
  created_by uuid NOT NULL REFERENCES accounts(id),
  cron_expression text NOT NULL,
  timezone text NOT NULL,
  message text NOT NULL,
  title text,
  enabled boolean NOT NULL,
  next_occurrence_at timestamptz,
  last_fired_at timestamptz,
  last_run_id uuid REFERENCES runs(id) ON DELETE SET NULL,
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  CHECK (enabled OR next_occurrence_at IS NULL),
  CHECK (deleted_at IS NULL OR next_occurrence_at IS NULL)
);
CREATE INDEX agent_schedules_agent_idx ON agent_schedules (agent_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX agent_schedules_due_idx ON agent_schedules (next_occurrence_at) WHERE next_occurrence_at IS NOT NULL;

CREATE TABLE agent_schedule_firings (
  schedule_id uuid NOT NULL REFERENCES agent_schedules(id),
  occurrence_at timestamptz NOT NULL,
  fired_at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('STARTED','SKIPPED_RUN_ACTIVE','SKIPPED_NO_RUNTIME','SKIPPED_AGENT_RETIRED')),
  run_id uuid REFERENCES runs(id) ON DELETE SET NULL,
  PRIMARY KEY (schedule_id, occurrence_at)
);

ALTER TABLE runs ADD CONSTRAINT runs_schedule_fk FOREIGN KEY (schedule_id) REFERENCES agent_schedules(id);
CREATE INDEX runs_schedule_idx ON runs (schedule_id) WHERE schedule_id IS NOT NULL;
`)
})
