/**
 * SQL of agent schedules (tables of migration 0022): saving, listing
 * and deleting schedules, and claiming the due ones for the firing. Rows come out in
 * the wire shape of `AgentSchedule`.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AgentSchedule } from "./Schemas.js"

const scheduleColumns = `s.id, s.agent_id AS "entityPublicId", s.cron_expression AS "cronExpression", s.timezone,
  s.message, s.title, s.enabled, api_ts(s.next_occurrence_at) AS "nextOccurrenceAt",
  api_ts(s.last_fired_at) AS "lastFiredAt", s.last_run_id AS "lastRunId", s.conversation_id AS "conversationId",
  s.version::float8 AS version, api_ts(s.created_at) AS "createdAt", api_ts(s.updated_at) AS "updatedAt"`

/** Keyset position of a schedule in its agent's list: `created_at` (text, microseconds) and the id; oldest first. */
export const SchedulePosition = Schema.Tuple(Schema.String, Schema.String)

const ListedRow = Schema.Struct({ ...AgentSchedule.fields, position: Schema.String })

/** A due schedule as the firing needs it (its row locked), with its agent's standing. */
export const DueSchedule = Schema.Struct({
  id: Schema.String,
  agentId: Schema.String,
  conversationId: Schema.String,
  cronExpression: Schema.String,
  timezone: Schema.String,
  message: Schema.String,
  /** The occurrence that is due (ISO 8601 in SQL, a `Date` here). */
  nextOccurrenceAt: Schema.Date,
  agentState: Schema.String,
  runtimeConfigured: Schema.Boolean
})
export type DueSchedule = typeof DueSchedule.Type

/** Why an occurrence did or did not start a run (`agent_schedule_firings.outcome`). */
export type FiringOutcome = "STARTED" | "SKIPPED_RUN_ACTIVE" | "SKIPPED_NO_RUNTIME" | "SKIPPED_AGENT_RETIRED"

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** Inserts the schedule's CHAT conversation, authored by `accountId`. */
  const insertConversation = (c: {
    readonly id: string
    readonly agentId: string
    readonly accountId: string
    readonly title: string | null
    readonly at: Date
  }) =>
    sql`INSERT INTO conversations (id, agent_id, account_id, kind, title, created_at, updated_at)
        VALUES (${c.id}, ${c.agentId}, ${c.accountId}, 'CHAT', ${c.title}, ${c.at}, ${c.at})`

  /** Inserts a schedule (version 1). */
  const insert = SqlSchema.single({
    Request: Schema.Struct({
      id: Schema.String,
      agentId: Schema.String,
      conversationId: Schema.String,
      createdBy: Schema.String,
      cronExpression: Schema.String,
      timezone: Schema.String,
      message: Schema.String,
      title: Schema.NullOr(Schema.String),
      enabled: Schema.Boolean,
      nextOccurrenceAt: Schema.NullOr(Schema.DateFromSelf),
      at: Schema.DateFromSelf
    }),
    Result: AgentSchedule,
    execute: (r) =>
      sql`WITH s AS (
            INSERT INTO agent_schedules (id, agent_id, conversation_id, created_by, cron_expression, timezone, message,
              title, enabled, next_occurrence_at, version, created_at, updated_at)
            VALUES (${r.id}, ${r.agentId}, ${r.conversationId}, ${r.createdBy}, ${r.cronExpression}, ${r.timezone},
              ${r.message}, ${r.title}, ${r.enabled}, ${r.nextOccurrenceAt}, 1, ${r.at}, ${r.at})
            RETURNING *)
          SELECT ${sql.literal(scheduleColumns)} FROM s`
  })

  /** The agent's schedules (not deleted), oldest first, strictly after `after`, at most `take`. */
  const listRows = SqlSchema.findAll({
    Request: Schema.Struct({ agentId: Schema.String, after: Schema.NullOr(SchedulePosition), take: Schema.Number }),
    Result: ListedRow,
    execute: ({ after, agentId, take }) =>
      sql`SELECT ${sql.literal(scheduleColumns)},
            to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
          FROM agent_schedules s
          WHERE s.agent_id = ${agentId} AND s.deleted_at IS NULL
            ${after === null ? sql`` : sql`AND (s.created_at, s.id) > (${after[0]}::timestamptz, ${after[1]}::uuid)`}
          ORDER BY s.created_at, s.id
          LIMIT ${take}`
  })

  /** One page of the agent's schedules with their keyset positions. */
  const list = (agentId: string, after: typeof SchedulePosition.Type | undefined, take: number) =>
    Effect.map(listRows({ agentId, after: after ?? null, take }), (rows) =>
      rows.map(({ position, ...schedule }) => ({ schedule, position: [position, schedule.id] as const })))

  /**
   * Deletes the schedule at `expectedVersion` in one conditional UPDATE: deleted now,
   * never fires again (`next_occurrence_at` NULL), version + 1. None when it is absent,
   * deleted, of another agent, or at another version.
   */
  const markDeleted = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, agentId: Schema.String, expectedVersion: Schema.Number, at: Schema.DateFromSelf }),
    Result: AgentSchedule,
    execute: (r) =>
      sql`WITH s AS (
            UPDATE agent_schedules SET deleted_at = ${r.at}, next_occurrence_at = NULL, version = version + 1,
              updated_at = ${r.at}
            WHERE id = ${r.id} AND agent_id = ${r.agentId} AND deleted_at IS NULL AND version = ${r.expectedVersion}
            RETURNING *)
          SELECT ${sql.literal(scheduleColumns)} FROM s`
  })

  /** The agent's schedule `id` (not deleted) as a refused command explains itself from it (`src/db/versioned.ts`). */
  const current = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, agentId: Schema.String }),
    Result: Schema.Struct({ version: Schema.Number, state: Schema.String }),
    execute: (r) =>
      sql`SELECT version::float8 AS version, CASE WHEN enabled THEN 'ENABLED' ELSE 'DISABLED' END AS state
          FROM agent_schedules WHERE id = ${r.id} AND agent_id = ${r.agentId} AND deleted_at IS NULL`
  })

  /**
   * Claims one due schedule (enabled, not deleted, `next_occurrence_at <= at`), the
   * earliest first, its row locked until the transaction ends; rows another transaction
   * holds are skipped (`FOR UPDATE SKIP LOCKED`), so concurrent firings share the due
   * schedules out and never take one twice. None when nothing (else) is due.
   */
  const claimDue = SqlSchema.findOne({
    Request: Schema.DateFromSelf,
    Result: DueSchedule,
    execute: (at) =>
      sql`SELECT s.id, s.agent_id AS "agentId", s.conversation_id AS "conversationId", s.cron_expression AS "cronExpression",
            s.timezone, s.message, api_ts(s.next_occurrence_at) AS "nextOccurrenceAt", a.state AS "agentState",
            EXISTS (SELECT 1 FROM agent_runtime_configs c WHERE c.agent_id = s.agent_id) AS "runtimeConfigured"
          FROM agent_schedules s JOIN agents a ON a.id = s.agent_id
          WHERE s.next_occurrence_at <= ${at} AND s.enabled AND s.deleted_at IS NULL
          ORDER BY s.next_occurrence_at, s.id
          LIMIT 1
          FOR UPDATE OF s SKIP LOCKED`
  })

  /**
   * Records how occurrence `occurrenceAt` was handled and moves the schedule to `next`
   * (null: it never fires again); a started run becomes its last run (`last_fired_at` =
   * `firedAt`). `version` and `updated_at` stay: a firing does not change the definition.
   */
  const recordFiring = (r: {
    readonly scheduleId: string
    readonly occurrenceAt: Date
    readonly firedAt: Date
    readonly outcome: FiringOutcome
    readonly runId: string | null
    readonly next: Date | null
  }) =>
    Effect.gen(function*() {
      yield* sql`INSERT INTO agent_schedule_firings (schedule_id, occurrence_at, fired_at, outcome, run_id)
                 VALUES (${r.scheduleId}, ${r.occurrenceAt}, ${r.firedAt}, ${r.outcome}, ${r.runId})`
      yield* r.runId === null
        ? sql`UPDATE agent_schedules SET next_occurrence_at = ${r.next} WHERE id = ${r.scheduleId}`
        : sql`UPDATE agent_schedules SET next_occurrence_at = ${r.next}, last_fired_at = ${r.firedAt},
                last_run_id = ${r.runId}
              WHERE id = ${r.scheduleId}`
    })

  return { insertConversation, insert, list, markDeleted, current, claimDue, recordFiring } as const
})

/** SQL of agent schedules. Requires `SqlClient`. */
export class SchedulesRepo extends Effect.Service<SchedulesRepo>()("agent-directory/SchedulesRepo", { effect: make }) {}
