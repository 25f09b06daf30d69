/**
 * The runtime area's migrations, by id (`NNNN_name`, global and ordered across areas): the
 * same record is its Area.ts `migrations` and an entry of `src/db/migrate.ts`, which imports
 * this light module (SQL only) rather than the area's HTTP layers.
 */
import type { Migrations } from "../Area.js"
import conversationRuns from "./migrations/0011_conversation_runs.js"
import agentRuns from "./migrations/0021_agent_runs.js"
import agentSchedules from "./migrations/0022_agent_schedules.js"
import conversationReads from "./migrations/0025_conversation_reads.js"

/** The runtime area's migrations, by id. */
export const migrations: Migrations = {
  "0011_conversation_runs": conversationRuns,
  "0021_agent_runs": agentRuns,
  "0022_agent_schedules": agentSchedules,
  "0025_conversation_reads": conversationReads
}
