/**
 * The end of a workspace's closing (spec §3 Workspace: CLOSING → CLOSED), started by
 * Workspaces_CloseWorkspace in its transaction, one execution per workspace:
 * 1. a durable sleep until the end of the grace period (`WORKSPACE_CLOSE_GRACE_HOURS` from
 *    when the closing started, fixed in the payload; `DurableClock`: it survives restarts and
 *    moves with the test clock);
 * 2. activity `close`: CLOSING → CLOSED (version + 1) with the `workspace.closed` audit
 *    event (actor: the platform), in one transaction; a workspace no longer CLOSING is left
 *    as it is.
 */
import { SqlClient } from "@effect/sql"
import { Activity, Workflow } from "@effect/workflow"
import { Effect, Schema } from "effect"
import { Audit } from "../../layers/Audit.js"
import { now } from "../../layers/Clock.js"
import { retryTransient, sleepUntil, survivingStorageErrors } from "../../layers/Engine.js"
import { WorkspacesRepo } from "./Repo.js"

/** The workflow: close workspace `workspaceId` at `closesAtMs` (epoch ms; execution id from `workspaceId`). */
export const WorkspaceCloseWorkflow = Workflow.make({
  name: "WorkspaceClose",
  payload: { workspaceId: Schema.String, closesAtMs: Schema.Number },
  idempotencyKey: ({ workspaceId }) => workspaceId
})

/** The workflow's implementation, registered on the engine. Requires `SqlClient`, `Audit` (plus the engine). */
export const WorkspaceCloseLive = WorkspaceCloseWorkflow.toLayer(({ closesAtMs, workspaceId }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* WorkspacesRepo
    const audit = yield* Audit
    yield* sleepUntil("grace", closesAtMs)
    yield* Activity.make({
      name: "close",
      execute: sql.withTransaction(Effect.gen(function*() {
        const at = yield* now
        if (!(yield* repo.finishClosing(workspaceId, at))) return
        yield* audit.record({
          workspaceId,
          actorAccountId: null,
          action: "workspace.closed",
          target: { type: "workspace", id: workspaceId },
          details: { state: "CLOSED" }
        })
      })).pipe(retryTransient, Effect.orDie)
    })
  }).pipe(survivingStorageErrors, Effect.provide(WorkspacesRepo.Default)))
