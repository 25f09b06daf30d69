/**
 * Observing the reputation evidence marks (`markAgentEvidence`, src/trust/reputation/Evidence.ts)
 * that a write makes, although the projector drains them (deletes them once projected,
 * src/trust/reputation/Projector.ts) within milliseconds on PostgreSQL: a trigger on the test's own
 * database copies every mark a committed transaction writes into `test_evidence_marks`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Starts recording afresh: installs the recording trigger (once per database) and forgets
 * every mark recorded so far.
 */
export const clearMarks = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS test_evidence_marks (agent_id uuid NOT NULL, marked_at timestamptz NOT NULL)`
  yield* sql`CREATE OR REPLACE FUNCTION test_record_evidence_mark() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN INSERT INTO test_evidence_marks VALUES (NEW.agent_id, NEW.marked_at); RETURN NEW; END $$`
  // BEFORE: a mark that finds one already there (ON CONFLICT DO NOTHING) is recorded too
  yield* sql`DROP TRIGGER IF EXISTS test_record_evidence_mark ON reputation_dirty_agents`
  yield* sql`CREATE TRIGGER test_record_evidence_mark BEFORE INSERT ON reputation_dirty_agents
             FOR EACH ROW EXECUTE FUNCTION test_record_evidence_mark()`
  yield* sql`DELETE FROM test_evidence_marks`
}).pipe(Effect.orDie)

/** When the latest mark of `agentId` recorded since {@link clearMarks} was made (ISO text), or undefined. */
export const markOf = (agentId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ markedAt: string | null }>`SELECT api_ts(max(marked_at)) AS "markedAt" FROM test_evidence_marks
                                                         WHERE agent_id = ${agentId}`
    return rows[0]?.markedAt ?? undefined
  }).pipe(Effect.orDie)
