/**
 * Running conversations (Runtime_SendMessage, Runtime_ClearPlaygroundRunData)
 * on the runtime tables of migration 0010:
 *
 * - at most one active run (any state but SUCCEEDED, FAILED, CANCELLED, TIMED_OUT) per
 *   conversation: the database backs the 409 `run-in-progress` of SendMessage, which
 *   itself serializes senders on the conversation row;
 * - a playground run belongs to a conversation (its data is the conversation's messages);
 * - messages by run, for the run job and the clearing of playground data.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE UNIQUE INDEX runs_one_active_per_conversation ON runs (conversation_id)
  WHERE conversation_id IS NOT NULL AND state NOT IN ('SUCCEEDED','FAILED','CANCELLED','TIMED_OUT');

ALTER TABLE runs ADD CONSTRAINT runs_playground_has_conversation CHECK (NOT is_playground OR conversation_id IS NOT NULL);

CREATE INDEX messages_run_idx ON messages (run_id) WHERE run_id IS NOT NULL;
`)
})
