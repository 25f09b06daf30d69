/**
 * What other areas may do to agent schedules as a whole: stop every schedule of the agents a
 * workspace operates (Workspaces_CloseWorkspace). Exported through `src/runtime/index.ts`.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"

/**
 * Stops every schedule (not deleted, still enabled) of the agents operated by
 * `workspaceId` (`agents.workspace_id`): disabled, never fires again
 * (`next_occurrence_at` NULL), version + 1, updated at `at`. Runs in the caller's
 * transaction; returns how many schedules it stopped. Fails with `SqlError`.
 */
export const stopWorkspaceSchedules = (
  workspaceId: string,
  at: Date
): Effect.Effect<number, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly id: string }>`
      UPDATE agent_schedules SET enabled = false, next_occurrence_at = NULL, version = version + 1, updated_at = ${at}
      WHERE deleted_at IS NULL AND enabled
        AND agent_id IN (SELECT a.id FROM agents a WHERE a.workspace_id = ${workspaceId})
      RETURNING id`
    return rows.length
  })
