/**
 * Retrying a FAILED workflow execution (Admin_RetryJobRun), through the engine's public
 * API: `Sharding.reset` clears a request's stored reply and marks it unprocessed (what
 * `ClusterWorkflowEngine` itself does to resume a suspended workflow), and
 * `Sharding.pollStorage` makes the runner read it at once. The execution's `run` request
 * and its failed activities are reset; its activities that succeeded keep their stored
 * results, so the retried execution replays them without running them again and picks up
 * at the step that failed, with the payload it was started with.
 */
import { Sharding, Snowflake } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { Audit } from "../../layers/Audit.js"
import type { WorkflowExecution } from "./Schemas.js"
import { InvalidState } from "../../schema/errors.js"
import { WorkflowExecutionNotFound } from "./Errors.js"
import { WorkflowExecutions } from "./Executions.js"

/**
 * Retries executions. Requires `SqlClient`; uses the engine's `Sharding` when the
 * composition provides it (the durable engine of `src/workflows.ts` does; an in-memory
 * `WorkflowEngine` standing in for it in a test does not, and then a retry dies).
 */
export class JobRetry extends Effect.Service<JobRetry>()("agent-directory/JobRetry", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const maybeSharding = yield* Effect.serviceOption(Sharding.Sharding)
    const executions = yield* WorkflowExecutions
    const audit = yield* Audit

    /**
     * Starts FAILED execution `executionId` again from its failed step; returns it as
     * Admin_ListJobRuns shows it (RUNNING or QUEUED, no `lastError`). Fails with
     * `WorkflowExecutionNotFound` (no such execution) or `InvalidState` (it is not FAILED:
     * nothing to retry, or already retried); dies on a storage failure. Writes the
     * account-level audit event `job_run.retried` (actor `adminAccountId`).
     */
    const retry = (executionId: string, adminAccountId: string): Effect.Effect<WorkflowExecution, WorkflowExecutionNotFound | InvalidState> =>
      Effect.gen(function*() {
        if (Option.isNone(maybeSharding)) return yield* Effect.dieMessage("no durable engine (Sharding) to retry on")
        const sharding = maybeSharding.value
        yield* sql.withTransaction(Effect.gen(function*() {
          // the run row stays locked until commit: a concurrent retry waits, then sees it no longer FAILED
          const found = yield* executions.byId(executionId, { lock: true })
          if (Option.isNone(found)) {
            return yield* new WorkflowExecutionNotFound({ detail: "The durable engine has no workflow execution with this id." })
          }
          if (found.value.state !== "FAILED") {
            return yield* new InvalidState({ detail: `Only a FAILED execution can be retried; this one is ${found.value.state}.` })
          }
          for (const id of yield* executions.failedRequests(executionId)) {
            if (!(yield* sharding.reset(Snowflake.Snowflake(id)))) {
              return yield* Effect.dieMessage("the engine could not reset a request of the execution")
            }
          }
          yield* audit.record({
            workspaceId: null,
            actorAccountId: adminAccountId,
            action: "job_run.retried",
            target: { type: "workflow_execution", id: executionId },
            details: {}
          })
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        yield* sharding.pollStorage
        return yield* executions.byId(executionId).pipe(Effect.orDie, Effect.map(Option.getOrThrow))
      })

    return { retry }
  }),
  dependencies: [WorkflowExecutions.Default]
}) {}
