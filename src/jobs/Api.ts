/** Admin area contract (ours, not in the spec; issue 6 §4): operations views for administrators. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Data } from "../../schema/envelope.js"
import { JobRun, ListJobRunsQuery } from "../../schema/jobs.js"
import { operation } from "../api/operation.js"

export class AdminApi extends HttpApiGroup.make("Admin")
  .add(
    HttpApiEndpoint.get("listJobRuns", "/api/v1/admin/jobs")
      .setUrlParams(ListJobRunsQuery)
      .addSuccess(Data(Schema.Array(JobRun)))
      .annotate(
        OpenApi.Description,
        "Recent runs of the durable background job runner, newest first: kind, state, attempts, timestamps and the " +
          "last error. `limit` 1-100 (default 50); `state` filters (pending, running, succeeded, failed). " +
          "Example: `GET /api/v1/admin/jobs?state=failed&limit=20` → `{\"data\":[{\"id\":\"…\",\"kind\":\"purge-sessions\"," +
          "\"state\":\"failed\",\"attempts\":5,\"maxAttempts\":5,\"runAt\":\"2026-06-01T03:00:00.000Z\",…," +
          "\"lastError\":\"SqlError: connection terminated\"}],\"meta\":{…}}`."
      )
      .pipe(
        operation({
          id: "Admin_ListJobRuns",
          auth: "required-admin",
          cache: "none",
          statuses: [400, 401, 403, 500, 503],
          summary: "List recent background job runs (admin)",
          description: "The most recent background job runs with their state, attempts and last error (admin only)."
        })
      )
  )
  .annotate(OpenApi.Description, "Admin: operations views (ours, outside the spec)")
{}
