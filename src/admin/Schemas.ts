/**
 * Background work as the admin sees it (ours, not in the spec): the executions of the
 * durable engine's workflows (`layers/Engine.ts`), for Admin_ListJobRuns.
 */
import { Schema } from "effect"
import { AnyJson, DateTimeZ, QueryInt, rule } from "../../schema/common.js"

/**
 * Life cycle of a workflow execution: `QUEUED` (started, no activity run yet) →
 * `RUNNING` → `SUCCEEDED` | `FAILED`; `SUSPENDED` while it waits durably (a timer such
 * as an export's retention, or another system), then `RUNNING` again. A workflow whose
 * work ended in a domain failure (a run FAILED with its `failureCode`) still SUCCEEDED:
 * FAILED means the workflow itself failed (a defect, e.g. an outage longer than the
 * activities' retries).
 */
export const WorkflowExecutionState = Schema.Literal("QUEUED", "RUNNING", "SUSPENDED", "SUCCEEDED", "FAILED").annotations({
  identifier: "WorkflowExecutionState"
})
/** @see WorkflowExecutionState */
export type WorkflowExecutionState = typeof WorkflowExecutionState.Type

/** One execution of a workflow (Admin_ListJobRuns). */
export const WorkflowExecution = Schema.Struct({
  executionId: Schema.String.annotations({
    description: "The execution's id: a digest of the workflow's name and its key (e.g. the run's id)",
    examples: ["3f8a2c1d9b7e4f60a5c3e2d1b0a99887"]
  }),
  workflow: Schema.String.annotations({ description: "The workflow's name", examples: ["AgentRun", "AnalyticsExport", "PartnerJobSync"] }),
  state: WorkflowExecutionState,
  payload: AnyJson.annotations({ description: "What it was started with (encoded)" }),
  activities: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description: "Activities started so far (an activity that completed is never run again, even after a crash)"
  }),
  createdAt: DateTimeZ.annotations({ description: "When it was started" }),
  finishedAt: Schema.NullOr(DateTimeZ).annotations({ description: "When it ended (or last suspended)" }),
  lastError: Schema.NullOr(Schema.String).annotations({
    description: "Why a FAILED execution failed (bounded, no secrets)",
    examples: ["SqlError: connection terminated", null]
  }),
  runner: Schema.NullOr(Schema.Int).annotations({
    description: "Machine id of the runner that last worked on it (its last activity or its end), null before it ran"
  })
}).annotations({ identifier: "WorkflowExecution" })
/** @see WorkflowExecution */
export type WorkflowExecution = typeof WorkflowExecution.Type

/** Query of Admin_ListJobRuns: limit 1-100 (default 50), optional state. */
export const ListJobRunsQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 50 }),
  state: Schema.optional(WorkflowExecutionState)
})

/**
 * A workflow execution's id as the engine makes it (`Workflow.executionId`: the first 16
 * bytes of the SHA-256 of the workflow's name and key, in lowercase hexadecimal).
 */
export const ExecutionId = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{32}$/),
  Schema.annotations({
    ...rule("must be a workflow execution id: 32 lowercase hexadecimal digits"),
    description: "A workflow execution's id (Admin_ListJobRuns `executionId`)",
    examples: ["3f8a2c1d9b7e4f60a5c3e2d1b0a99887"]
  })
)

/** Path of Admin_RetryJobRun. */
export const RetryJobRunPath = Schema.Struct({ executionId: ExecutionId })
