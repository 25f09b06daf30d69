/** Admin area contract (ours, not in the spec; issue 6 §4): operations views for administrators. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Data } from "../../schema/envelope.js"
import { ListJobRunsQuery, WorkflowExecution } from "../../schema/jobs.js"
import { operation } from "../api/operation.js"

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
  .annotate(OpenApi.Description, "Admin: operations views (ours, outside the spec)")
{}
