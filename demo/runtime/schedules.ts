/**
 * Demo data of agent schedules and its seed step, run after the rest
 * of the runtime demo data (`./Area.ts`). Both demo schedules are disabled, so they
 * never fire on the demo database (nor in tests that move the clock); the
 * Runtime_CreateAgentSchedule example creates an enabled one.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts } from "../accounts/seed.js"
import { demoId, demoTime } from "../common.js"
import { DemoRuntimeAgents } from "./data.js"

/** A fixed demo UUID of the schedule group (0x0122…). */
const id = (n: number) => demoId(0x0122, n)

/** Schedules of Atlas Research (the configured demo agent), each with its own CHAT conversation, by the owner. */
export const DemoSchedules = {
  /** Listed by the Runtime_ListAgentSchedules example. */
  digest: {
    id: id(1), conversationId: id(2), agent: DemoRuntimeAgents.configured, cronExpression: "0 8 * * 1",
    timezone: "Europe/Berlin", message: "Write this week's market digest.", title: "Weekly market digest", day: 90
  },
  /** Deleted by the Runtime_DeleteAgentSchedule example (at version 1). */
  cleanup: {
    id: id(3), conversationId: id(4), agent: DemoRuntimeAgents.configured, cronExpression: "@daily",
    timezone: "UTC", message: "List the sources that failed today.", title: null, day: 91
  }
} as const

/** Inserts the demo schedules and their conversations. Fails with `SqlError`. */
export const seedScheduleDemoData = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const schedules = Object.values(DemoSchedules)
  yield* sql`INSERT INTO conversations ${
    sql.insert(schedules.map((s) => ({
      id: s.conversationId,
      agent_id: s.agent,
      account_id: DemoAccounts.owner.id,
      kind: "CHAT",
      title: s.title,
      created_at: demoTime(s.day),
      updated_at: demoTime(s.day)
    })))
  }`
  yield* sql`INSERT INTO agent_schedules ${
    sql.insert(schedules.map((s) => ({
      id: s.id,
      agent_id: s.agent,
      conversation_id: s.conversationId,
      created_by: DemoAccounts.owner.id,
      cron_expression: s.cronExpression,
      timezone: s.timezone,
      message: s.message,
      title: s.title,
      enabled: false,
      next_occurrence_at: null,
      version: 1,
      created_at: demoTime(s.day),
      updated_at: demoTime(s.day)
    })))
  }`
})
