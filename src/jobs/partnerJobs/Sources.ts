/** Domain rules of partner job sources (spec §2.18, §4.2 Jobs_SyncPartnerJobSource). */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { WorkflowEngine } from "@effect/workflow"
import type { SyncPartnerJobSourceRequest } from "./Schemas.js"
import { requireConfirmation } from "../../db/confirmation.js"
import { explainRefusal, updateVersioned } from "../../db/versioned.js"
import { PartnerJobsRepo } from "./Repo.js"
import { PartnerJobSync } from "./Sync.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { PartnerJobSourceNotFound } from "./Errors.js"

/** States from which a sync can be asked for. */
const syncableStates = ["ACTIVE", "DEGRADED"]

/** Partner job sources: operator commands. Requires `SqlClient` and the `WorkflowEngine`. */
export class Sources extends Effect.Service<Sources>()("agent-directory/PartnerJobSources", {
  effect: Effect.gen(function*() {
    const repo = yield* PartnerJobsRepo
    const sql = yield* SqlClient.SqlClient
    const engine = yield* WorkflowEngine.WorkflowEngine

    const refuse = (sourceId: string, expectedVersion: number) =>
      Effect.flatMap(repo.findById(sourceId), (found) =>
        explainRefusal({
          resource: "partner-job-source",
          id: sourceId,
          notFound: (detail) => new PartnerJobSourceNotFound({ detail }),
          current: Option.map(found, (s) => ({ version: s.version, state: s.state })),
          expectedVersion,
          fromStates: syncableStates,
          stateDetail: (state) => `The source is ${state}; only ACTIVE or DEGRADED sources sync.`
        }))

    /**
     * Jobs_SyncPartnerJobSource. Dry run: the source unchanged (after the version and
     * state checks). Apply (`confirmation` = the source's code): `nextSyncAt` = now,
     * version + 1, and its `PartnerJobSync` workflow started in the same transaction.
     *
     * Fails with `PartnerJobSourceNotFound` (`partner-job-source-not-found`), `InvalidRequest`
     * (`confirmation-required`, `confirmation-mismatch`), `Conflict`
     * (`version-conflict`, `invalid-state`).
     */
    const requestSync = (input: { readonly sourceId: string; readonly body: SyncPartnerJobSourceRequest }) =>
      Effect.gen(function*() {
        const { body, sourceId } = input
        const found = yield* repo.findById(sourceId)
        if (
          Option.isNone(found) || found.value.version !== body.expectedVersion ||
          !syncableStates.includes(found.value.state)
        ) return yield* refuse(sourceId, body.expectedVersion)
        if (body.dryRun) return found.value
        yield* requireConfirmation(body.confirmation, found.value.code, "the source's code")
        const at = yield* now
        const changed = yield* updateVersioned({
          table: "partner_job_sources",
          id: sourceId,
          expectedVersion: body.expectedVersion,
          set: sql`next_sync_at = ${at}, updated_at = ${at}`,
          fromStates: syncableStates
        })
        if (Option.isNone(changed)) return yield* refuse(sourceId, body.expectedVersion)
        yield* PartnerJobSync.execute({ sourceId, version: changed.value, dueAt: at.toISOString() }, { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
        )
        return yield* repo.findById(sourceId).pipe(Effect.flatMap(Effect.orDie))
      }).pipe(dieOnStorageFailure)

    return { requestSync }
  }),
  dependencies: [PartnerJobsRepo.Default]
}) {}
