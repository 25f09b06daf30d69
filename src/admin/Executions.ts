/**
 * The durable engine's workflow executions, read from the engine's own storage
 * (Admin_ListJobRuns). `@effect/cluster`'s `SqlMessageStorage` keeps one `run` request
 * per execution in `cluster_messages` (entity type `Workflow/<name>`, entity id = the
 * execution id, the encoded payload), one `activity` request per activity started, and
 * the execution's outcome as a reply in `cluster_replies` (an encoded `Workflow.Result`:
 * `Complete` with its `Exit`, or `Suspended`). That table layout is the library's, not a
 * public API: this module is the one place that reads it, and
 * test/admin/AdminListJobRuns.test.ts fails if an upgrade changes it. Times and runner
 * ids come from the engine's snowflake ids (`Snowflake.toParts`, public API).
 */
import { MachineId, Snowflake } from "@effect/cluster"
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, Option } from "effect"
import type { WorkflowExecution, WorkflowExecutionState } from "./Schemas.js"

/** The longest `lastError` (characters). */
const MaxErrorLength = 1000

interface ExecutionRow {
  readonly id: string
  readonly entityType: string
  readonly executionId: string
  readonly payload: string | null
  readonly activities: number
  readonly lastActivityId: string | null
  readonly replyId: string | null
  readonly reply: string | null
  readonly state: WorkflowExecutionState
}

/** The first failure or defect of an encoded `Cause`, as `Name: message` (bounded). */
const describeCause = (cause: unknown): string | null => {
  if (typeof cause !== "object" || cause === null) return null
  const c = cause as Record<string, unknown>
  if (c["_tag"] === "Fail" || c["_tag"] === "Die") {
    const value = c["_tag"] === "Fail" ? c["error"] : c["defect"]
    if (typeof value === "string") return value
    if (typeof value === "object" && value !== null) {
      const v = value as Record<string, unknown>
      if (typeof v["message"] === "string") return typeof v["name"] === "string" ? `${v["name"]}: ${v["message"]}` : v["message"]
      if (typeof v["_tag"] === "string") return v["_tag"]
    }
    return JSON.stringify(value) ?? null
  }
  for (const key of ["left", "right", "cause"]) {
    const found = describeCause(c[key])
    if (found !== null) return found
  }
  return null
}

const parse = (text: string | null): unknown => {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const toExecution = (row: ExecutionRow): WorkflowExecution => {
  const reply = parse(row.reply) as { value?: { exit?: { cause?: unknown } } } | null
  const last = row.replyId ?? row.lastActivityId
  return {
    executionId: row.executionId,
    workflow: row.entityType.replace(/^Workflow\//, ""),
    state: row.state,
    payload: parse(row.payload),
    activities: row.activities,
    createdAt: new Date(Snowflake.timestamp(Snowflake.Snowflake(row.id))),
    finishedAt: row.replyId === null ? null : new Date(Snowflake.timestamp(Snowflake.Snowflake(row.replyId))),
    lastError: row.state === "FAILED"
      ? (describeCause(reply?.value?.exit?.cause) ?? "unknown failure").slice(0, MaxErrorLength)
      : null,
    runner: last === null ? null : Snowflake.toParts(Snowflake.Snowflake(last)).machineId
  }
}

/** Reads workflow executions. Requires `SqlClient` (the engine's database). */
export class WorkflowExecutions extends Effect.Service<WorkflowExecutions>()("agent-directory/WorkflowExecutions", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * The most recent executions, newest first: at most `limit`, optionally in one
     * `state`. Empty before the engine has created its tables. Fails with `SqlError`.
     */
    const ready = Effect.map(
      sql<{ ready: boolean }>`SELECT to_regclass('cluster_messages') IS NOT NULL AS ready`,
      ([row]) => row?.ready === true
    )

    /** Every execution with its derived state (a subquery over the engine's tables). */
    const executions = sql`
      SELECT m.id::text AS id, m.entity_type AS "entityType", m.entity_id AS "executionId", m.payload,
        a.activities, a.last_id AS "lastActivityId", r.id::text AS "replyId", r.payload AS reply,
        CASE
          WHEN r.id IS NULL THEN CASE WHEN a.activities = 0 THEN 'QUEUED' ELSE 'RUNNING' END
          WHEN r.payload::jsonb #>> '{value,_tag}' = 'Suspended' THEN 'SUSPENDED'
          WHEN r.payload::jsonb #>> '{_tag}' = 'Success' AND r.payload::jsonb #>> '{value,exit,_tag}' = 'Success'
            THEN 'SUCCEEDED'
          ELSE 'FAILED'
        END AS state
      FROM cluster_messages m
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS activities, max(x.id)::text AS last_id FROM cluster_messages x
        WHERE x.entity_type = m.entity_type AND x.entity_id = m.entity_id AND x.tag = 'activity'
      ) a
      LEFT JOIN LATERAL (
        SELECT id, payload FROM cluster_replies WHERE request_id = m.id AND kind = 0 ORDER BY id DESC LIMIT 1
      ) r ON true
      -- the engine's own entities (its durable clocks) are named Workflow/-/…
      WHERE m.tag = 'run' AND m.entity_type LIKE 'Workflow/%' AND m.entity_type NOT LIKE 'Workflow/-/%'`

    /**
     * The most recent executions, newest first: at most `limit`, optionally in one
     * `state`. Empty before the engine has created its tables. Fails with `SqlError`.
     */
    const recent = (options: { readonly limit: number; readonly state?: WorkflowExecutionState | undefined }) =>
      Effect.gen(function*() {
        if (!(yield* ready)) return []
        const rows = yield* sql<ExecutionRow>`
          SELECT * FROM (${executions}) e
          ${options.state === undefined ? sql`` : sql`WHERE e.state = ${options.state}`}
          ORDER BY e.id::bigint DESC
          LIMIT ${options.limit}`
        return rows.map(toExecution)
      }) as Effect.Effect<ReadonlyArray<WorkflowExecution>, SqlError.SqlError>

    /** How many executions each workflow has in each state (all runners). Fails with `SqlError`. */
    const counts = Effect.gen(function*() {
      if (!(yield* ready)) return []
      const rows = yield* sql<{ entityType: string; state: WorkflowExecutionState; count: number }>`
        SELECT e."entityType", e.state, count(*)::int AS count FROM (${executions}) e GROUP BY 1, 2 ORDER BY 1, 2`
      return rows.map((r) => ({ workflow: r.entityType.replace(/^Workflow\//, ""), state: r.state, count: r.count }))
    })

    /**
     * Requests waiting for a runner (all runners): unprocessed engine messages that are
     * due at `at` (workflow runs, activities, timers). Fails with `SqlError`.
     */
    const queueDepth = (at: Date) =>
      Effect.gen(function*() {
        if (!(yield* ready)) return 0
        const [row] = yield* sql<{ n: number }>`
          SELECT count(*)::int AS n FROM cluster_messages m
          WHERE m.processed = false AND (m.deliver_at IS NULL OR m.deliver_at <= ${at.getTime()})
            AND NOT EXISTS (SELECT 1 FROM cluster_replies r WHERE r.request_id = m.id AND r.kind = 0)`
        return row?.n ?? 0
      })

    /**
     * Addresses of finished work whose outcome is older than `before` (at most `limit`):
     * workflow executions that SUCCEEDED or FAILED (with the engine's durable clock of
     * the same execution) and past cron occurrences. Their rows can be cleared with
     * `MessageStorage.clearAddress`. Fails with `SqlError`.
     */
    const finishedBefore = (before: Date, limit: number) =>
      Effect.gen(function*() {
        if (!(yield* ready)) return []
        const cutoff = Snowflake.make({ timestamp: before.getTime(), machineId: MachineId.make(0), sequence: 0 })
        const rows = yield* sql<{ entityType: string; entityId: string; shardId: string }>`
          SELECT DISTINCT x.entity_type AS "entityType", x.entity_id AS "entityId", x.shard_id AS "shardId"
          FROM cluster_messages m
          JOIN cluster_messages x ON x.entity_id = m.entity_id
            AND (x.entity_type = m.entity_type OR (m.entity_type LIKE 'Workflow/%' AND x.entity_type = 'Workflow/-/DurableClock'))
          WHERE m.tag = 'run' AND m.processed
            AND ((m.entity_type LIKE 'Workflow/%' AND m.entity_type NOT LIKE 'Workflow/-/%') OR m.entity_type LIKE 'ClusterCron/%')
            AND EXISTS (
              SELECT 1 FROM cluster_replies r
              WHERE r.request_id = m.id AND r.kind = 0 AND r.id < ${String(cutoff)}::bigint
                AND r.payload::jsonb #>> '{value,_tag}' IS DISTINCT FROM 'Suspended')
          LIMIT ${limit}`
        return rows
      })

    /**
     * One execution by id, as {@link recent} shows it, or `None`. With `lock`, its `run`
     * request's row is locked for the caller's transaction first (one retry at a time).
     * Fails with `SqlError`.
     */
    const byId = (executionId: string, options: { readonly lock?: boolean } = {}) =>
      Effect.gen(function*() {
        if (!(yield* ready)) return Option.none<WorkflowExecution>()
        if (options.lock === true) {
          yield* sql`
            SELECT id FROM cluster_messages
            WHERE entity_id = ${executionId} AND tag = 'run'
              AND entity_type LIKE 'Workflow/%' AND entity_type NOT LIKE 'Workflow/-/%'
            FOR UPDATE`
        }
        const rows = yield* sql<ExecutionRow>`SELECT * FROM (${executions}) e WHERE e."executionId" = ${executionId} LIMIT 1`
        return Option.map(Option.fromNullable(rows[0]), toExecution)
      }) as Effect.Effect<Option.Option<WorkflowExecution>, SqlError.SqlError>

    /**
     * The engine requests of an execution whose stored outcome is a failure: its `run`
     * request and each `activity` request whose final reply is not a success (the requests
     * to reset for a retry; activities that succeeded keep their results). Request ids as
     * decimal strings. Fails with `SqlError`.
     */
    const failedRequests = (executionId: string) =>
      Effect.map(
        sql<{ id: string }>`
          SELECT m.id::text AS id FROM cluster_messages m
          JOIN cluster_replies r ON r.request_id = m.id AND r.kind = 0
          WHERE m.entity_id = ${executionId} AND m.tag IN ('run', 'activity')
            AND m.entity_type LIKE 'Workflow/%' AND m.entity_type NOT LIKE 'Workflow/-/%'
            AND NOT (r.payload::jsonb #>> '{_tag}' = 'Success' AND r.payload::jsonb #>> '{value,exit,_tag}' = 'Success')
            AND r.payload::jsonb #>> '{value,_tag}' IS DISTINCT FROM 'Suspended'
          ORDER BY m.id`,
        (rows) => rows.map((r) => r.id)
      )

    return { recent, byId, failedRequests, counts, queueDepth, finishedBefore }
  })
}) {}
