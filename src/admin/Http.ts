/** HTTP handlers of the Admin area: the workflow executions view (Admin_ListJobRuns) and their retry (Admin_RetryJobRun). */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { WorkflowExecutions } from "./Executions.js"
import { JobRetry } from "./Retry.js"

export const AdminHttpLive = group(Api, "Admin", (handlers) =>
  Effect.gen(function*() {
    const executions = yield* WorkflowExecutions
    const jobRetry = yield* JobRetry
    const envelope = yield* Envelope
    return handlers
      .handle("listJobRuns", ({ urlParams }) =>
        executions.recent({ limit: urlParams.limit, state: urlParams.state }).pipe(Effect.orDie, Effect.flatMap(envelope.data)))
      .handle("retryJobRun", ({ path }) =>
        currentSession.pipe(
          Effect.flatMap((session) => jobRetry.retry(path.executionId, session.accountId)),
          Effect.flatMap(envelope.data)
        ))
  }))
