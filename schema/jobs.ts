/** Background job runs as the admin sees them (ours, not in the spec; issue 6 §4). */
import { Schema } from "effect"
import { DateTimeZ, Uuid } from "./common.js"

/** Life cycle of a job run: `pending` → `running` → `succeeded` | `failed`; a failed attempt with attempts left goes back to `pending`. */
export const JobRunState = Schema.Literal("pending", "running", "succeeded", "failed").annotations({
  identifier: "JobRunState"
})
/** @see JobRunState */
export type JobRunState = typeof JobRunState.Type

/** One run of a background job (Admin_ListJobRuns). */
export const JobRun = Schema.Struct({
  id: Uuid,
  kind: Schema.String.annotations({ description: "Job kind, e.g. `purge-idempotency-records`", examples: ["purge-sessions"] }),
  state: JobRunState,
  attempts: Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "Attempts started so far" }),
  maxAttempts: Schema.Int.pipe(Schema.positive()),
  runAt: DateTimeZ.annotations({ description: "Earliest time of the next (or last) attempt" }),
  createdAt: DateTimeZ,
  startedAt: Schema.NullOr(DateTimeZ).annotations({ description: "Start of the latest attempt" }),
  finishedAt: Schema.NullOr(DateTimeZ),
  lastError: Schema.NullOr(Schema.String).annotations({
    description: "Error of the latest failed attempt (bounded, no secrets)",
    examples: ["SqlError: connection terminated", null]
  })
}).annotations({ identifier: "JobRun" })
/** @see JobRun */
export type JobRun = typeof JobRun.Type

/** Query of Admin_ListJobRuns: limit 1-100 (default 50), optional state. */
export const ListJobRunsQuery = Schema.Struct({
  limit: Schema.optionalWith(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100)), {
    default: () => 50
  }),
  state: Schema.optional(JobRunState)
})
