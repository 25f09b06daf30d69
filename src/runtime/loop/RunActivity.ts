/**
 * The public trace of a completed run (spec §2.21): a run that SUCCEEDED records one
 * PRODUCT_EVIDENCE item `run.completed` of its agent, `evidencePublicId` = the run's id, in the
 * transaction that finishes it (the run loop's last step, src/runtime/loop/AgentRunWorkflow.ts).
 *
 * Which runs the public may know of: runs answering a message in a CHAT conversation
 * (`triggerType` MESSAGE) and runs of a schedule (SCHEDULE). Playground runs (PLAYGROUND) are
 * the operators' private trials, whose data can be cleared: they record nothing. Nor do runs
 * that FAILED, were CANCELLED or TIMED_OUT. The item says only that a run of that trigger
 * completed: never the conversation, its messages, the account, the model, the usage or the cost.
 * Recorded once per run (dedupe key `run.completed:<run id>`), so an activity retried by the
 * engine records nothing twice.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { recordActivity } from "../../../layers/Activity.js"
import type { Ids } from "../../../layers/Ids.js"

/** The summary of a completed run, by trigger type (one public sentence). */
const summaries: Record<string, string> = {
  MESSAGE: "Completed a run answering a message.",
  SCHEDULE: "Completed a scheduled run."
}

/**
 * Records `run.completed` for run `runId`, finished SUCCEEDED at `at`, unless it is a playground
 * run (or of a trigger type not listed above). Call it in the finishing transaction. A storage
 * failure is a defect.
 */
export const recordRunCompleted = (runId: string, at: Date): Effect.Effect<void, never, SqlClient.SqlClient | Ids> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [run] = yield* sql<{ agentId: string; triggerType: string; isPlayground: boolean }>`
      SELECT agent_id AS "agentId", trigger_type AS "triggerType", is_playground AS "isPlayground"
      FROM runs WHERE id = ${runId} AND state = 'SUCCEEDED'`.pipe(Effect.orDie)
    const summary = run === undefined || run.isPlayground ? undefined : summaries[run.triggerType]
    if (run === undefined || summary === undefined) return
    yield* recordActivity({
      agentId: run.agentId,
      activityKey: "run.completed",
      dedupeKey: `run.completed:${runId}`,
      sourceKind: "PRODUCT_EVIDENCE",
      summary,
      evidencePublicId: runId,
      occurredAt: at
    })
  })
