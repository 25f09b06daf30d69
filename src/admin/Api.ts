/** Admin area contract (ours, not in the spec): operations views for administrators. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { InvalidState } from "../../schema/errors.js"
import { ListJobRunsQuery, RetryJobRunPath, WorkflowExecution } from "./Schemas.js"
import { operation } from "../api/operation.js"
import { WorkflowExecutionNotFound } from "./Errors.js"

export class AdminApi extends HttpApiGroup.make("Admin")
  .add(
    HttpApiEndpoint.get("listJobRuns", "/api/v1/admin/jobs")
      .setUrlParams(ListJobRunsQuery)
      .addSuccess(Data(Schema.Array(WorkflowExecution)))
      .annotate(
        OpenApi.Description,
        "Recent executions of the durable engine's workflows (agent runs, analytics exports, partner syncs), newest " +
          "first, read from the engine's own storage: workflow, state (QUEUED, RUNNING, SUSPENDED, SUCCEEDED, FAILED), " +
          "payload, activities started, timestamps, the last error of a FAILED one and the runner's machine id. " +
          "`limit` 1-100 (default 50); `state` filters. Example: `GET /api/v1/admin/jobs?state=FAILED&limit=20` → " +
          "`{\"data\":[{\"executionId\":\"…\",\"workflow\":\"AgentRun\",\"state\":\"FAILED\",…," +
          "\"lastError\":\"SqlError: connection terminated\"}],\"meta\":{…}}`."
      )
      .pipe(
        operation({
          id: "Admin_ListJobRuns",
          auth: "required-admin",
          cache: "none",
          statuses: [400, 401, 403, 500, 503],
          summary: "List recent workflow executions (admin)",
          description: "The most recent executions of the durable engine's workflows with their state, activities and last error (admin only)."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("retryJobRun", "/api/v1/admin/jobs/:executionId/retry")
      .setPath(RetryJobRunPath)
      .setHeaders(IdempotencyKeyRequired)
      .addSuccess(Data(WorkflowExecution), { status: 202 })
      .pipe(
        operation({
          id: "Admin_RetryJobRun",
          auth: "required-admin",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Retry a failed workflow execution (admin)",
          description: "Starts a FAILED execution of the durable engine again, from the step that failed, and answers 202 " +
            "with the execution as Admin_ListJobRuns shows it (now RUNNING, or QUEUED if no activity had started; " +
            "`lastError` null). The engine's stored outcome of the execution and of its failed activities is cleared; " +
            "activities that had succeeded keep their results and do not run again; the payload is the one it was " +
            "started with. An unknown `executionId` is 404 `workflow-execution-not-found`; an execution that is not " +
            "FAILED (running, suspended, succeeded, or already retried) is 409 `invalid-state`. Of concurrent retries " +
            "of one execution exactly one succeeds. Admin only.",
          errors: [WorkflowExecutionNotFound, InvalidState]
        })
      )
  )
  .annotate(OpenApi.Description, "Admin: operations views (ours, outside the spec)")
{}
